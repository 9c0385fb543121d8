/**
 * Which settled payments still have webhooks to deliver, as far as the file store says: a delivery that ends is
 * recorded (`hk`), so a restart delivers only what was not finished.
 *
 * @module
 */
import type { MockState, StoredPayment } from '../domain/payments.ts';
import type { OnceOnly } from '../store/once-only.ts';
import {
  type RecordApplier,
  type RecordBody,
  type Recorder,
  type RecordSnapshot,
  textField,
} from '../store/records.ts';
import type { WebhookFanout } from './fanout.ts';

/** The progress tracker. */
export interface WebhookProgress extends RecordApplier, RecordSnapshot {
  /** Whether `payment` still has a URL its webhook has not finished at. */
  pending(payment: StoredPayment): boolean;
  /** The fan-out's `onFinished`: records the end of a delivery. */
  finished(delivery: { readonly paymentUuid: string; readonly url: string; readonly state: string }): void;
  /** Forgets the progress (reset, rebuild). */
  reset(): void;
}

/** Dependencies of {@link createWebhookProgress}. */
export interface WebhookProgressDeps {
  readonly state: MockState;
  readonly webhooks: Pick<WebhookFanout, 'urlsOf' | 'deliver'>;
  readonly once: () => OnceOnly;
  readonly record: Recorder;
}

/** Creates the tracker. */
export function createWebhookProgress(deps: WebhookProgressDeps): WebhookProgress {
  const { state, webhooks } = deps;
  /** URLs finished per payment still in progress; removed once every URL is done. */
  const partial = new Map<string, Set<string>>();
  /** Payments whose webhooks are all finished: weak, so evicted payments take their entry with them. */
  let done = new WeakSet<StoredPayment>();

  const pending = (p: StoredPayment) => {
    const urls = webhooks.urlsOf(p.clientId);
    if (urls.length === 0 || done.has(p)) return false;
    const got = partial.get(p.uuid);
    return urls.some((u) => !got?.has(u));
  };

  function mark(uuid: string, url: string): void {
    const p = state.payment(undefined, uuid);
    if (!p) return;
    let got = partial.get(uuid);
    if (!got) {
      got = new Set();
      partial.set(uuid, got);
    }
    got.add(url);
    if (webhooks.urlsOf(p.clientId).every((u) => got.has(u))) {
      partial.delete(uuid);
      done.add(p);
    }
  }

  /**
   * `p` was settled before a restart: deliver what was not finished then. A delivery the log restored is already in
   * the history (the dispatcher resumes it when unfinished), so only URLs whose delivery left no record are sent.
   */
  function takeOver(p: StoredPayment): void {
    deps.once().run({
      needed: () => state.payment(undefined, p.uuid) === p && pending(p),
      work: () => webhooks.deliver(p, partial.get(p.uuid)),
    });
  }

  return {
    pending,
    finished(d) {
      deps.record({ t: 'hk', u: d.paymentUuid, url: d.url, s: d.state });
      mark(d.paymentUuid, d.url);
    },
    apply(r) {
      if (r.t === 'hk') mark(textField(r, 'u'), textField(r, 'url'));
      else if (r.t === 'set') {
        const p = state.payment(textField(r, 'c'), textField(r, 'u'));
        if (p && pending(p)) takeOver(p);
      }
    },
    snapshot() {
      // An `hk` per URL finished: of payments still in progress, and of those done (every URL of their client).
      const out: RecordBody[] = [];
      for (const [u, urls] of partial) for (const url of urls) out.push({ t: 'hk', u, url, s: 'finished' });
      for (const p of state.payments()) {
        if (!done.has(p)) continue;
        for (const url of webhooks.urlsOf(p.clientId)) out.push({ t: 'hk', u: p.uuid, url, s: 'finished' });
      }
      return out;
    },
    reset() {
      partial.clear();
      done = new WeakSet();
    },
  };
}
