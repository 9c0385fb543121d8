/**
 * The one table that declares each mock option's kind, default and flag, and the flags that set one number of the
 * assumptions. The checks, the CLI's parser and `--help`, the `--config` file and docs/options.md are made from
 * these rows.
 *
 * @module
 */

import { type Assumptions, defaultAssumptions } from '../assumptions.ts';
import { assumptionsKind } from '../internal/assumption-overrides.ts';
import { parseHttpUrl } from '../internal/http-url.ts';
import { kitMessage } from '../internal/messages.ts';
import {
  httpUrls,
  type OptionRow,
  type OptionTable,
  oneOf,
  parsedBy,
  text,
  wholeNumber,
  yesNo,
} from '../internal/option-table.ts';
import { defaultCredentials } from '../spec-names.ts';
import { type CorsInput, parseAllowedHosts, parseCorsOrigins } from './internal/http/browser-options.ts';
import {
  clientsKind,
  controlTokenKind,
  latencyKind,
  logSinkKind,
  realNowKind,
  standardSecretKind,
} from './internal/option-kinds.ts';
import type { MockGuide, MockLogFormat } from './internal/option-types.ts';
import { storeKind } from './internal/store/store-kind.ts';

import type { MockOptions } from './mock-options.ts';

/**
 * Every option of the mock, once: its kind (which checks it in code and in a `--config` file, and reads its flag's
 * text), its default, and its flag (`--name`, `PCK_NAME`, help text). `resolveMockOptions`, `defaultMockOptions`,
 * the CLI's parser and `--help`, the `--config` file check and the option table of docs/options.md are produced
 * from it. The `satisfies` below makes the compiler hold it to {@link MockOptions}: one row per option, no more.
 *
 * To add an option (`controlToken`, say): write its field with TSDoc in {@link MockOptions} (mock-options.ts), and in
 * `ResolvedMockOptions` in options.ts (`string`, or `string | undefined` without a default, then also one line
 * `controlToken: given.controlToken` in `resolveMockOptions`' answer, as `latency` has); add a row here: a kind from
 * `src/internal/option-table.ts` (`text('token', { nonEmpty: true })`) or `internal/option-kinds.ts`, a `default`
 * or a `shownDefault`, and a `flag` with a name and one line of help (its variable is `PCK_` + the name); then run
 * `npm run generate` to rewrite docs/options.md. The CLI, `--help`, the config file and the checks take it with no
 * other edit; the code that uses it reads it from the resolved options.
 */
export const mockOptionTable = {
  port: {
    kind: wholeNumber(0, 65_535),
    default: 4010,
    flag: { name: 'port', help: 'Port to listen on; 0 picks a free port.' },
  },
  host: {
    kind: text('host', { nonEmpty: true }),
    default: '127.0.0.1',
    flag: { name: 'host', help: 'Host to listen on.' },
  },
  clients: {
    kind: clientsKind,
    default: [{ clientId: defaultCredentials.clientId, apiKey: defaultCredentials.apiKey }],
    shownDefault: `${defaultCredentials.clientId} / ${defaultCredentials.apiKey}`,
    // Flags: --client-id and --api-key (one client), in the command: they build one entry of this list.
  },
  guide: {
    kind: oneOf<MockGuide>(['current', 'legacy', 'both']),
    default: 'current',
    flag: { name: 'guide', help: 'Guide answered on /graphql; "both" detects it per request.' },
  },
  assumptions: { kind: assumptionsKind, shownDefault: 'the ledger (ASSUMPTIONS.md)' },
  tokenTtlSeconds: {
    kind: wholeNumber(1),
    shownDefault: String(defaultAssumptions.tokenTtlSeconds),
    flag: { name: 'token-ttl', placeholder: 'seconds', help: 'Access token lifetime.' },
  },
  strictGenerate: {
    kind: yesNo,
    shownDefault: 'off',
    flag: {
      name: 'strict-generate',
      sets: true,
      help: 'A second generate-token for a client answers 401 (use refresh-token), as the spec\'s "call once" rule.',
    },
  },
  settleDelayMs: {
    kind: wholeNumber(0),
    shownDefault: String(defaultAssumptions.settleDelayMs),
    flag: { name: 'settle-delay', placeholder: 'ms', help: 'Time from payment acceptance to settlement and webhook.' },
  },
  webhookUrls: {
    kind: httpUrls((raw) => parseHttpUrl(raw) !== undefined),
    default: [],
    flag: {
      name: 'webhook-url',
      help: 'Where payment status webhooks go; repeat for several (env: comma-separated).',
    },
  },
  webhookSigningKey: {
    kind: text('key'),
    default: defaultCredentials.webhookSigningKey,
    flag: { name: 'webhook-signing-key', help: 'Signing key sent with webhooks.' },
  },
  standardWebhooksSecret: {
    kind: standardSecretKind,
    shownDefault: 'off',
    flag: {
      name: 'standard-webhooks-secret',
      help: 'Opt-in: also sign webhooks with Standard Webhooks headers using this secret.',
    },
  },
  latency: {
    kind: latencyKind,
    shownDefault: 'none',
    flag: { name: 'latency', help: 'Simulated latency per answer in ms, e.g. 50-300 or 2000 (for timeout testing).' },
  },
  seed: {
    kind: text('text'),
    default: 'payment-contract-kit',
    flag: { name: 'seed', help: 'Seed of ids and tokens; the same requests give the same answers.' },
  },
  logFormat: {
    kind: oneOf<MockLogFormat>(['text', 'json']),
    default: 'text',
    flag: {
      name: 'log',
      help: 'Request log format on standard error: text lines, or one JSON object per line.',
    },
  },
  log: { kind: logSinkKind, shownDefault: 'standard error' },
  requestLog: {
    kind: yesNo,
    default: true,
    flag: {
      name: 'quiet',
      sets: false,
      help: 'No line per request or webhook attempt; warnings of refused or lost work and errors still go to standard error.',
    },
  },
  // Its flag is --max-body-bytes among the limit flags below (it sets assumptions.limits.maxBodyBytes, as this does).
  maxBodyBytes: { kind: wholeNumber(0), default: defaultAssumptions.limits.maxBodyBytes },
  journalSize: {
    kind: wholeNumber(1),
    default: 1000,
    flag: { name: 'journal-size', help: 'Requests kept in the journal (a ring).' },
  },
  realNow: { kind: realNowKind, shownDefault: 'Date.now' },
  cors: {
    kind: corsKind('cors'),
    shownDefault: '*',
    flag: {
      name: 'cors',
      help: 'Origins allowed to call the token endpoints and /graphql from a browser (comma list).',
    },
  },
  controlCors: {
    kind: corsKind('controlCors'),
    shownDefault: 'off',
    flag: { name: 'control-cors', help: 'Origins allowed to call /__pck/* and the pages cross-origin.' },
  },
  allowedHosts: {
    kind: parsedBy('names|all', (value: string | readonly string[] | boolean) =>
      parseAllowedHosts('allowedHosts', listOrSwitch('allowedHosts', value, '"all", true, or host names')),
    ),
    shownDefault: 'none',
    flag: {
      name: 'allowed-hosts',
      help: 'Host header names accepted besides localhost, IP addresses and --host (.domain for subdomains).',
    },
  },
  ui: {
    kind: yesNo,
    default: true,
    flag: { name: 'no-ui', sets: false, help: 'Serve no pages (landing page, GraphiQL, dashboard).' },
  },
  store: {
    kind: storeKind,
    default: 'memory:',
    flag: {
      name: 'store',
      help: 'Where the sandbox state lives: memory: (this process), file:<path> (survives restarts and crashes; one process) or redis://host:6379 (replicas share it). See docs/shared-sandbox.md.',
    },
  },
  coverageFile: {
    kind: text('path', { nonEmpty: true }),
    shownDefault: 'none',
    flag: {
      name: 'coverage-file',
      help: 'When the mock stops (SIGTERM, SIGINT), write its coverage report (JSON) to this file. See docs/coverage.md.',
    },
  },
  controlToken: {
    kind: controlTokenKind,
    shownDefault: 'none (open control API)',
    flag: {
      name: 'control-token',
      help: 'Every /__pck/ request must send "Authorization: Bearer <secret>"; required with a --host other machines reach. Prefer the variable (a flag shows in ps).',
    },
  },
} as const satisfies OptionTable<MockOptions>;

function corsKind(option: 'cors' | 'controlCors') {
  return parsedBy('origins|*|off', (value: CorsInput) =>
    parseCorsOrigins(option, listOrSwitch(option, value, '"*", "off", false, or origins')),
  );
}

/** `value` when it is a string, an array or a boolean (what the browser options' parsers take); else a refusal. */
function listOrSwitch<T>(option: string, value: T, takes: string): T {
  if (typeof value === 'string' || typeof value === 'boolean' || Array.isArray(value)) return value;
  throw new TypeError(
    kitMessage(`mock option "${option}" takes ${takes} (a comma list or an array); got ${String(value)}.`),
  );
}

/**
 * The flags that set one value of the assumptions (ASSUMPTIONS.md, "Limits" and "History caps"); each wins over the
 * same value in a `--config` file's `assumptions`. `target` is the value's place in the assumptions.
 */
export const mockAssumptionFlags = [
  limit('max-body-bytes', 'limits', 'maxBodyBytes', 'Largest request body in bytes (413 above).'),
  limit('max-json-depth', 'limits', 'maxJsonDepth', 'Deepest nesting of a JSON request body (400 above).'),
  limit('max-tokens', 'limits', 'maxTokens', 'Most tokens in a GraphQL document.'),
  limit('max-query-depth', 'limits', 'maxDepth', 'Deepest field nesting of a GraphQL operation.'),
  limit('max-aliases', 'limits', 'maxAliases', 'Most aliases in a GraphQL operation.'),
  limit('max-directives', 'limits', 'maxDirectives', 'Most directives in a GraphQL operation.'),
  limit('max-cost', 'limits', 'maxCost', 'Highest estimated cost of a GraphQL operation.'),
  limit('max-text-length', 'bounds', 'maxTextLength', 'Longest string in a text input field.'),
  limit('max-metadata-bytes', 'bounds', 'maxMetadataBytes', 'Largest payment metadata, in bytes of JSON.'),
  limit('max-metadata-depth', 'bounds', 'maxMetadataDepth', 'Deepest nesting of payment metadata.'),
  limit('max-payments', 'history', 'maxPaymentsPerClient', 'Payments kept per client (oldest settled evicted).'),
  limit('max-deliveries', 'history', 'maxDeliveries', 'Finished webhook deliveries kept (oldest evicted).'),
  limit(
    'max-pending-deliveries',
    'history',
    'maxPendingDeliveries',
    'Pending webhook deliveries; past it new ones are refused (failed, pending-cap) and logged.',
  ),
  limit('max-attempts-kept', 'history', 'maxAttemptsPerDelivery', 'Attempts kept per webhook delivery (latest).'),
] as const;

/** One flag of {@link mockAssumptionFlags}: a whole number of at least 1 at `assumptions.<group>.<key>`. */
export interface AssumptionFlag {
  readonly group: 'limits' | 'bounds' | 'history';
  readonly key: string;
  readonly row: OptionRow<number>;
}

function limit<G extends AssumptionFlag['group']>(
  name: string,
  group: G,
  key: keyof Assumptions[G] & string,
  help: string,
): AssumptionFlag {
  const shown = String(defaultAssumptions[group][key]);
  return { group, key, row: { kind: wholeNumber(1), shownDefault: shown, flag: { name, help } } };
}
