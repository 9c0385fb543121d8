/**
 * The dynamic half of `verify`: any consumer's pact files replayed by pact-js's `Verifier` against an in-process mock
 * (port 0, closed afterwards), with the kit's provider states and webhook messages, and one outcome per interaction.
 * Each file gets a mock of its own that accepts the clients the file names (./pact-clients.ts), and the request filter
 * of ./request-filter.ts (the token a state issued; the body length pact-js's proxy gets wrong).
 *
 * Per-interaction results come from the Verifier's own JSON report (pact-core hands the native verifier's report back
 * as the resolved value, or as the rejection's message when something failed): `interactionResults` says which
 * interactions passed, `errors` says why the others failed. Each pact file is verified in a run of its own, so the
 * results map to one file and one consumer, and a file the verifier cannot read fails alone.
 *
 * The native verifier prints its human report to standard output itself; callers that need a clean standard output
 * (machine-readable formats) should run this in a child process.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { Verifier } from '@pact-foundation/pact';
import { providerStates } from '../../contract/provider-state-names.ts';
import { kitMessage } from '../../internal/messages.ts';
import { startMockServer } from '../../mock/index.ts';
import { providerName } from '../names.ts';
import { messageProviders, stateHandlers, type VerifierStateHandlers } from '../verifier-handlers.ts';
import { describeAnswer, startAnswerRecorder, takeAnswer } from './answer-recorder.ts';
import { pactClients } from './pact-clients.ts';
import { createStateTokenRelay, type StateTokenRelay } from './request-filter.ts';

/** Which guide the in-process mock answers in. */
export type VerifyGuide = 'current' | 'legacy' | 'both';

/** Options of {@link verifyDynamic}. */
export interface VerifyDynamicOptions {
  /** Pact files (JSON; Pact specification V2, V3 or V4). */
  readonly pactFiles: readonly string[];
  /** Guide of the mock. Default `both`. */
  readonly guide?: VerifyGuide;
}

/** The result of one interaction. */
export interface InteractionOutcome {
  /** The pact file, as given. */
  readonly file: string;
  readonly consumer: string;
  readonly provider: string;
  /** The interaction's description. */
  readonly interaction: string;
  /** `http` for request/response interactions, `message` for asynchronous messages. */
  readonly kind: 'http' | 'message';
  readonly ok: boolean;
  /** Why it failed, one line each (empty when ok). */
  readonly reasons: readonly string[];
}

/** An interaction as read from a pact file. */
interface PactInteraction {
  readonly description: string;
  readonly kind: 'http' | 'message';
  readonly states: readonly string[];
  /** The request of an HTTP interaction (V4 bodies unwrapped), to find the mock's answer to it. */
  readonly request?: { readonly method: string; readonly path: string; readonly body?: unknown } | undefined;
}

/** A pact file as far as this module needs it. */
interface PactSummary {
  readonly consumer: string;
  readonly provider: string;
  readonly interactions: readonly PactInteraction[];
}

/** The parts of the native verifier's JSON report used here. */
interface VerifierReport {
  readonly errors?: readonly { interaction?: string; mismatch?: VerifierMismatch }[];
  readonly interactionResults?: readonly { description?: string; result?: string }[];
}

interface VerifierMismatch {
  readonly type?: string;
  readonly message?: string;
  readonly mismatches?: readonly { type?: string; path?: string; key?: string; mismatch?: string }[];
}

const knownStates = new Set<string>(Object.values(providerStates));
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes of the native verifier's messages.
const ansi = /\u001b\[[0-9;]*m/g;

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function nameOf(value: unknown, fallback: string): string {
  const name = record(value).name;
  return typeof name === 'string' && name !== '' ? name : fallback;
}

/**
 * Reads the consumer, the provider and the interactions of a V2, V3 (HTTP or message) or V4 pact file.
 *
 * @example
 * summarisePact(JSON.parse(await readFile(file, 'utf8'))).interactions.filter((i) => i.kind === 'message');
 */
export function summarisePact(json: unknown): PactSummary {
  const pact = record(json);
  const list = [
    ...(Array.isArray(pact.interactions) ? pact.interactions : []),
    ...(Array.isArray(pact.messages)
      ? pact.messages.map((m) => ({ ...record(m), type: 'Asynchronous/Messages' }))
      : []),
  ];
  const interactions = list.map((raw): PactInteraction => {
    const i = record(raw);
    const states = Array.isArray(i.providerStates)
      ? i.providerStates.map((s) => nameOf(s, ''))
      : typeof i.providerState === 'string'
        ? [i.providerState]
        : [];
    const type = typeof i.type === 'string' ? i.type : '';
    return {
      description: typeof i.description === 'string' ? i.description : '',
      kind: type.endsWith('/Messages') ? 'message' : 'http',
      states: states.filter((s) => s !== ''),
      request: requestOf(i.request),
    };
  });
  return { consumer: nameOf(pact.consumer, '?'), provider: nameOf(pact.provider, '?'), interactions };
}

/** An HTTP interaction's request: method, path and body (a V4 body's `content`). */
function requestOf(value: unknown): PactInteraction['request'] {
  const r = record(value);
  if (typeof r.method !== 'string' || typeof r.path !== 'string') return undefined;
  const body = record(r.body);
  const v4 = 'content' in body && ('contentType' in body || 'encoded' in body);
  return { method: r.method, path: r.path, body: v4 ? body.content : r.body };
}

/** One line per mismatch, in the words of the verifier. */
function reasonsOf(mismatch: VerifierMismatch | undefined): string[] {
  if (!mismatch) return [];
  if (mismatch.mismatches && mismatch.mismatches.length > 0)
    return mismatch.mismatches.map((m) => {
      const what = (m.mismatch ?? m.type ?? 'mismatch').replace(ansi, '');
      const where = m.path ?? (m.key === undefined ? undefined : `metadata ${m.key}`);
      return where ? `${where}: ${what}` : what;
    });
  return [(mismatch.message ?? mismatch.type ?? 'the verifier reported an error').replace(ansi, '')];
}

function parseReport(text: string): VerifierReport | undefined {
  try {
    const report = JSON.parse(text) as unknown;
    return typeof report === 'object' && report !== null ? (report as VerifierReport) : undefined;
  } catch {
    return undefined;
  }
}

/** A state setup that failed, in the order the verifier asked for it. */
interface StateFailure {
  readonly state: string;
  readonly message: string;
}

/**
 * The kit's state handlers, each handing the token its state issued to the request filter and noting a failed setup
 * (the verifier's report does not say why a state failed, only what the request then got wrong).
 */
function relayTokens(
  handlers: VerifierStateHandlers,
  relay: StateTokenRelay,
  failures: StateFailure[],
): VerifierStateHandlers {
  const relayed: VerifierStateHandlers = {};
  for (const [state, handler] of Object.entries(handlers)) {
    if (typeof handler !== 'function') continue;
    relayed[state] = async (params?: unknown) => {
      try {
        const values: unknown = await handler(params as never);
        relay.issued(values);
        return values as Record<string, unknown>;
      } catch (error) {
        relay.issued(undefined);
        failures.push({ state, message: error instanceof Error ? error.message : String(error) });
        throw error;
      }
    };
  }
  return relayed;
}

async function verifyFile(file: string, guide: VerifyGuide): Promise<InteractionOutcome[]> {
  let json: unknown;
  let pact: PactSummary;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
    pact = summarisePact(json);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return [failedFile(file, kitMessage(`${file} is not a readable JSON pact file: ${why}`))];
  }
  if (pact.interactions.length === 0) return [];

  // A mock of its own per file, accepting the clients the file names (its first client for states without one).
  const mock = await startMockServer({ port: 0, guide, log: false, clients: pactClients(json) });
  // The verifier talks to a recording front, so a failure can say what the mock answered.
  const front = await startAnswerRecorder(mock.url);
  let report: VerifierReport | undefined;
  let failure: string | undefined;
  const stateFailures: StateFailure[] = [];
  try {
    const relay = createStateTokenRelay();
    const out = await new Verifier({
      provider: pact.provider === '?' ? providerName : pact.provider,
      providerBaseUrl: front.url,
      pactUrls: [file],
      stateHandlers: relayTokens(stateHandlers(mock), relay, stateFailures),
      messageProviders: messageProviders(mock),
      requestFilter: relay.filter,
      logLevel: 'error',
    }).verifyProvider();
    report = parseReport(String(out));
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    report = parseReport(text);
    failure = text;
  } finally {
    await front.close();
    await mock.close();
  }
  if (!report)
    return pact.interactions.map((i) =>
      outcome(file, pact, i, [kitMessage(`the Pact verifier could not verify this file: ${failure ?? 'no report'}`)]),
    );

  // Results come in file order; descriptions may repeat within a file, so each result is taken once.
  const results = [...(report.interactionResults ?? [])];
  const errors = [...(report.errors ?? [])];
  return pact.interactions.map((i) => {
    const at = results.findIndex((r) => r.description === i.description);
    const result = at >= 0 ? results.splice(at, 1)[0] : undefined;
    // Interactions run in file order, so each failed setup belongs to the first interaction left with that state.
    const failedStates = i.states.flatMap((state) => {
      const f = stateFailures.findIndex((x) => x.state === state);
      return f >= 0 ? stateFailures.splice(f, 1) : [];
    });
    const answer = i.kind === 'http' && i.request ? takeAnswer(front.answers, i.request) : undefined;
    if (result?.result === 'OK') return outcome(file, pact, i, []);
    const prefix = `Verifying a pact between ${pact.consumer} and ${pact.provider}`;
    const e = errors.findIndex(
      (x) => x.interaction?.startsWith(prefix) && x.interaction.endsWith(` - ${i.description}`),
    );
    const reasons = e >= 0 ? reasonsOf(errors.splice(e, 1)[0]?.mismatch) : [];
    const unknown = i.states.filter((s) => !knownStates.has(s));
    if (unknown.length > 0)
      reasons.unshift(
        `provider state ${unknown.map((s) => `"${s}"`).join(', ')} is not one the mock sets up (known: ${[...knownStates].map((s) => `"${s}"`).join(', ')})`,
      );
    // The mock's own message, without the handler's "POST <url> answered 400:" (the URL has a random port).
    reasons.unshift(...failedStates.map((f) => f.message.replace(/^.*? answered \d{3}: /, '')));
    if (reasons.length === 0)
      reasons.push(result ? `the verifier reported ${result.result}` : 'the verifier did not run it');
    if (answer) reasons.push(describeAnswer(answer));
    return outcome(file, pact, i, reasons);
  });
}

function outcome(file: string, pact: PactSummary, i: PactInteraction, reasons: string[]): InteractionOutcome {
  const { consumer, provider } = pact;
  return { file, consumer, provider, interaction: i.description, kind: i.kind, ok: reasons.length === 0, reasons };
}

function failedFile(file: string, reason: string): InteractionOutcome {
  return { file, consumer: '?', provider: '?', interaction: '(file)', kind: 'http', ok: false, reasons: [reason] };
}

/**
 * Verifies pact files against a fresh in-process mock with pact-js's `Verifier`, the kit's provider states and its
 * webhook messages; resolves with one outcome per interaction (an unreadable file gives one failed outcome).
 *
 * @example
 * const outcomes = await verifyDynamic({ pactFiles: ['pacts/checkout-card-payment-service.json'], guide: 'current' });
 * for (const o of outcomes) console.log(o.ok ? 'PASS' : 'FAIL', o.interaction, o.reasons.join('; '));
 */
export async function verifyDynamic(options: VerifyDynamicOptions): Promise<InteractionOutcome[]> {
  const outcomes: InteractionOutcome[] = [];
  for (const file of options.pactFiles) outcomes.push(...(await verifyFile(file, options.guide ?? 'both')));
  return outcomes;
}
