/**
 * The payments and webhooks of a shared sandbox (a Redis store, decision 0040), built for the composition root: the
 * store holds them, this replica settles what its poller claims and sends the webhook attempts it claims. The Node
 * entries pass this builder to the core (node-store.ts), so the browser builds, which never have such a store, leave
 * it out.
 *
 * @module
 */
import type { Assumptions } from '../assumptions.ts';
import type { Clock } from './internal/domain/clock.ts';
import type { EventBus } from './internal/domain/events.ts';
import { createSharedPayments, type SharedPayments } from './internal/domain/shared-payments.ts';
import type { PaymentCaps } from './internal/store/payment-state.ts';
import type { SharedStatePlan } from './internal/store/store-wiring.ts';
import type { WebhookAttemptReport } from './internal/webhooks/delivery-attempts.ts';
import { createSharedDeliveries, type SharedDeliveries } from './internal/webhooks/shared-deliveries.ts';
import type { WebhookTransport } from './internal/webhooks/transport.ts';
import type { ResolvedMockOptions } from './options.ts';
import type { MockPlatform } from './platform.ts';

/** What {@link sharedSandboxParts} builds on, from the composition root. */
export interface SharedPartsDeps {
  readonly assumptions: Assumptions;
  readonly clock: Clock;
  readonly events: EventBus;
  readonly options: Pick<
    ResolvedMockOptions,
    'clients' | 'webhookUrls' | 'webhookSigningKey' | 'standardWebhooksSecret' | 'realNow'
  >;
  readonly platform: Pick<MockPlatform, 'crypto'>;
  readonly caps: PaymentCaps;
  readonly log: { line(text: string): void; webhookAttempt(report: WebhookAttemptReport): void };
  /** Seeded [0, 1) source for retry jitter. */
  readonly random: () => number;
  readonly transport: WebhookTransport;
}

/**
 * The shared payments (with the poller) and the shared webhooks over `ports`.
 *
 * @example
 * const shared = plan.payments && sharedSandboxParts(plan.payments, { assumptions, clock, events, ... });
 */
export function sharedSandboxParts(
  ports: SharedStatePlan['payments'],
  deps: SharedPartsDeps,
): { readonly payments: SharedPayments; readonly deliveries: SharedDeliveries } {
  const { assumptions, clock, events, options, log } = deps;
  const { crypto } = deps.platform;
  const deliveries = createSharedDeliveries({
    ...{ assumptions, clock, clients: options.clients, webhookUrls: options.webhookUrls, events },
    ...{ port: ports.deliveries, signingKey: options.webhookSigningKey, realNow: options.realNow },
    standardWebhooksSecret: options.standardWebhooksSecret,
    ...{ random: deps.random, transport: deps.transport },
    // The store's lease, as a settlement's: a dead replica's attempts are sent again within it. An attempt slower
    // than the lease is sent again by another replica too, under its id (at least once); its late outcome is refused.
    visibilityMs: assumptions.store.leaseMs,
    ...{ hmacSha256Base64: crypto.hmacSha256Base64, sha256Hex: crypto.sha256Hex },
    onProblem: (line) => log.line(line),
    onAttempt: (report) => log.webhookAttempt(report),
  });
  const payments = createSharedPayments({
    ...{ port: ports.port, background: ports.background, idle: ports.idle },
    ...{ assumptions, clock, events, realNow: options.realNow, deliveries, caps: deps.caps },
    onError: (line) => log.line(line),
  });
  return { payments, deliveries };
}
