/**
 * Pact provider states on the mock: the one implementation behind `POST /__pck/provider-states`, the message route
 * and the `stateHandlers` / `messageProviders` of `payment-contract-kit/pact` (which call those routes).
 *
 * Every setup starts from a clean mock (`reset`), so states never leak from one interaction into the next, and
 * answers the values the kit's `fromProviderState` expressions use. A setup with an empty state name (verifiers send
 * one for interactions without a state) only resets. Teardown resets too: whatever setup made is gone.
 * The payment of `paymentFinalised` is made as a client would, through the mock's own pipeline (fee calculation,
 * then the payment with that fee), and settled through the control handle, which hands it to the webhook side.
 *
 * @module
 */

import { type ProviderStateValues, providerStates } from '../../../contract/provider-state-names.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { servicePaths } from '../../../spec-names.ts';
import { testCardDetails } from '../../../test-values.ts';
import { testCards } from '../domain/cards.ts';
import type { MockControl, MockPayment } from '../handle/control-handle.ts';
import { restError } from '../http-error.ts';
import type { MockClientConfig } from '../option-types.ts';
import type { WebhookMessage } from '../webhooks/fanout.ts';
import { bad, type Params, text } from './params.ts';
import { finalPayment, type Serve } from './payment.ts';

/** One provider state as a verifier names it. */
export interface ProviderStateCall {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A message for a Pact message interaction: what the mock delivers for the payment of the states. */
export interface PactMessage extends WebhookMessage {
  /** Metadata for the verifier: the identifying headers, plus the delivery id when a delivery was made. */
  readonly metadata: Readonly<Record<string, string>>;
}

const known = Object.values(providerStates) as readonly string[];

function unknownState(name: string): Error {
  const list = known.map((s) => `"${s}"`).join(', ');
  return restError(
    400,
    kitMessage(
      `unknown provider state "${name}"; this mock sets up: ${list} (or "" for an interaction without a state).`,
    ),
  );
}

/** Dependencies of {@link createProviderStates}. */
export interface ProviderStateDeps {
  readonly control: MockControl;
  readonly clients: readonly MockClientConfig[];
  /** Answers a request through the mock's own pipeline (the in-process fetch handler). */
  readonly serve: Serve;
  /** The webhook a settled payment is delivered as. */
  readonly webhookMessage: (payment: MockPayment) => WebhookMessage;
}

/** The provider states of one mock instance. */
export interface ProviderStateService {
  /** Resets the mock, then sets up each state in order; answers the merged values for `fromProviderState`. */
  setup(states: readonly ProviderStateCall[]): Promise<Partial<ProviderStateValues>>;
  /** Resets what setup made. */
  teardown(states: readonly ProviderStateCall[]): void;
  /** Sets up `states` (when given) and answers the webhook of the payment they finalised. */
  message(description: string, states: readonly ProviderStateCall[]): Promise<PactMessage>;
}

/**
 * Creates the provider states of one mock.
 *
 * @example
 * const states = createProviderStates({ control, clients, serve: app.fetch, webhookMessage: webhooks.message });
 * await states.setup([{ name: providerStates.accessToken, params: { clientId: 'test-client' } }]); // { token }
 */
export function createProviderStates(deps: ProviderStateDeps): ProviderStateService {
  const { control } = deps;
  /** The payment `paymentFinalised` settled since the last reset, for the message route. */
  let finalised: { clientId: string; uuid: string } | undefined;

  /**
   * The client a state is for: `params.clientId`, or the mock's first configured client when the state carries no
   * `clientId` (a Pact V2 state has no parameters at all; with no configured clients that is the default test client).
   */
  function client(state: string, params: Params): MockClientConfig {
    const first = deps.clients[0];
    if (params.clientId === undefined && first) return first;
    const clientId = text(state, params, 'clientId');
    const found = deps.clients.find((c) => c.clientId === clientId);
    if (!found)
      throw bad(
        state,
        `client "${clientId}" is not configured on this mock; configured: ${deps.clients.map((c) => `"${c.clientId}"`).join(', ')} (see --client-id / --config).`,
      );
    return found;
  }

  async function finalise(state: string, params: Params): Promise<void> {
    const { clientId } = client(state, params);
    finalised = { clientId, uuid: await finalPayment(deps.serve, control, state, clientId, params) };
  }

  async function setupOne(call: ProviderStateCall): Promise<Partial<ProviderStateValues>> {
    const { name, params } = call;
    switch (name) {
      case providerStates.clientCredentials:
      case providerStates.tokenServiceFailing: {
        const c = client(name, params);
        if (name === providerStates.tokenServiceFailing)
          for (const path of [servicePaths.generateToken, servicePaths.refreshToken, servicePaths.revokeToken])
            control.failNextRequest(path, 500, { message: 'Internal server error.' });
        return { clientId: c.clientId, apiKey: c.apiKey };
      }
      case providerStates.tokenPair: {
        const c = client(name, params);
        const pair = control.issueToken(c.clientId);
        return { clientId: c.clientId, apiKey: c.apiKey, token: pair.token, refreshToken: pair.refresh_token };
      }
      case providerStates.accessToken:
        return { token: control.issueToken(client(name, params).clientId).token };
      case providerStates.expiredAccessToken: {
        const { token } = control.issueToken(client(name, params).clientId);
        // One second past the token lifetime on the mock's virtual clock.
        control.advanceClock(control.assumptions.tokenTtlSeconds * 1000 + 1000);
        return { token };
      }
      case providerStates.cardAccount: {
        const { clientId } = client(name, params);
        const cardType = text(name, params, 'cardType');
        const testCard = Object.values(testCards).find((c) => c.card_type === cardType && c.outcome === 'success');
        if (!testCard) {
          const types = [...new Set(Object.values(testCards).map((c) => c.card_type))].join(', ');
          throw bad(name, `params.cardType "${cardType}" has no test card; use one of ${types}.`);
        }
        const { expiry_month, expiry_year } = testCardDetails;
        const cardAccountUid = control.registerCardAccount(clientId, {
          card_number: testCard.number,
          expiry_month,
          expiry_year,
        });
        return { token: control.issueToken(clientId).token, cardAccountUid };
      }
      case providerStates.paymentFinalised:
        await finalise(name, params);
        return {};
      default:
        throw unknownState(name);
    }
  }

  function reset(): void {
    control.reset();
    finalised = undefined;
  }

  async function setup(states: readonly ProviderStateCall[]): Promise<Partial<ProviderStateValues>> {
    // Check every name first, so an unknown one changes nothing.
    const unknown = states.find((s) => s.name !== '' && !known.includes(s.name));
    if (unknown) throw unknownState(unknown.name);
    reset();
    let values: Partial<ProviderStateValues> = {};
    for (const s of states) if (s.name !== '') values = { ...values, ...(await setupOne(s)) };
    return values;
  }

  return {
    setup,
    teardown: () => reset(),
    async message(description, states) {
      if (states.length > 0) await setup(states);
      const payment = finalised && (await control.payments(finalised.clientId)).find((p) => p.uuid === finalised?.uuid);
      if (!payment)
        throw restError(
          400,
          kitMessage(
            `no message for "${description}": no payment has reached its final status. Give the provider state "${providerStates.paymentFinalised}" with { clientId, outcome, amount, metadata? }.`,
          ),
        );
      // The delivered event when a URL took it (its exact payload and id), else the event as it would be delivered.
      const built = deps.webhookMessage(payment);
      const delivery = (await control.deliveries()).find((d) => d.paymentUuid === payment.uuid);
      const deliveryHeader = control.assumptions.webhook.deliveryIdHeader;
      return {
        payload: delivery?.payload ?? built.payload,
        headers: built.headers,
        metadata: delivery ? { ...built.headers, [deliveryHeader]: delivery.id } : built.headers,
      };
    },
  };
}
