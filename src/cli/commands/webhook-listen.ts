/**
 * `payment-contract-kit webhook listen`: receives the mock's (or the service's) payment status webhooks on a local
 * port, checks each one's signature and prints one line per delivery, like `stripe listen`; `--forward-to` passes
 * each on to the team's own endpoint. The handler only maps flags (and their variables, the mock's own for the keys)
 * to `startWebhookListener`'s options; receiving, checking and forwarding are in src/webhook/listener.ts.
 *
 * @module
 */
import { defaultCredentials } from '../../contract/service-names.ts';
import { kitMessage } from '../../internal/messages.ts';
import { text, wholeNumber, yesNo } from '../../internal/option-table.ts';
import {
  DEFAULT_LISTEN_PORT,
  deliveryLine,
  startWebhookListener,
  type WebhookListenerOptions,
} from '../../webhook/listener.ts';
import { type CommandIo, parseCommandLine } from '../command-line.ts';
import { readConfigFile } from '../config-file.ts';
import { UsageError } from '../flag-values.ts';
import { type CommandFlag, flagOfRow, helpRows, parseFlags } from '../option-flags.ts';

const isHttpUrl = (raw: string) => {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * Every flag of the command, once: the parser, `--help` and docs/options.md are produced from this table. The keys
 * read the mock's variables (`PCK_CLIENT_ID`, `PCK_WEBHOOK_SIGNING_KEY`, `PCK_STANDARD_WEBHOOKS_SECRET`), so one
 * shell's settings give the mock and the listener the same keys; the port has a variable of its own, since the
 * mock's `PCK_PORT` is the mock's port.
 */
export const webhookListenFlags: readonly CommandFlag[] = [
  flagOfRow('port', {
    kind: wholeNumber(0, 65_535),
    default: DEFAULT_LISTEN_PORT,
    flag: { name: 'port', env: 'PCK_LISTEN_PORT', help: 'Port to listen on; 0 picks a free port.' },
  }),
  flagOfRow('host', {
    kind: text('host', { nonEmpty: true }),
    default: '127.0.0.1',
    flag: { name: 'host', env: 'PCK_LISTEN_HOST', help: 'Host to listen on.' },
  }),
  flagOfRow(
    'signingKey',
    {
      kind: text('key', { nonEmpty: true }),
      default: defaultCredentials.webhookSigningKey,
      flag: {
        name: 'signing-key',
        env: 'PCK_WEBHOOK_SIGNING_KEY',
        help: "Webhook signing key each delivery must carry (the mock's --webhook-signing-key).",
      },
    },
    { configKey: 'webhookSigningKey' },
  ),
  flagOfRow('clientId', {
    kind: text('id', { nonEmpty: true }),
    default: defaultCredentials.clientId,
    flag: { name: 'client-id', env: 'PCK_CLIENT_ID', help: 'Client id each delivery must carry.' },
  }),
  flagOfRow(
    'standardWebhooksSecret',
    {
      kind: text('whsec_...', { nonEmpty: true }),
      shownDefault: 'off',
      flag: {
        name: 'standard-webhooks-secret',
        env: 'PCK_STANDARD_WEBHOOKS_SECRET',
        help: 'Also require a valid Standard Webhooks signature with this secret.',
      },
    },
    { configKey: 'standardWebhooksSecret' },
  ),
  flagOfRow('forwardTo', {
    kind: text('url'),
    shownDefault: 'none',
    flag: {
      name: 'forward-to',
      env: 'PCK_FORWARD_TO',
      help: 'Pass each delivery on to this URL (your endpoint), body and signature headers unchanged; its answer is printed.',
    },
  }),
  flagOfRow('config', {
    kind: text('file.json'),
    flag: {
      name: 'config',
      env: false,
      help: "The mock's --config file: its webhookSigningKey (or --client-id's own signingKey) and standardWebhooksSecret, below the flags and variables.",
    },
  }),
  flagOfRow('help', {
    kind: yesNo,
    flag: { name: 'help', short: 'h', env: false, sets: true, help: 'Show this help.' },
  }),
];

/** Help text, with examples. */
export const help = `Usage: payment-contract-kit webhook listen [options]

Receives payment status webhooks on a local port, checks each delivery's signature with the kit's
checkWebhookSignature, and prints one line per delivery: the answer, the payment uuid and status, the delivery
id, "signature ok" or why not. Answers 204 for a valid delivery, 401 when the signature does not hold, 400 for a
body that is not a payment status webhook, 413 for a body over 1 MiB; card numbers are never printed. Start the
mock with --webhook-url pointing at it (any path). Stop with Ctrl-C.

Options:
${helpRows(webhookListenFlags)}

Exit status: 0 after Ctrl-C (SIGINT) or SIGTERM, 1 when the port cannot be taken, 2 for bad flags.

Examples:
  payment-contract-kit webhook listen
  payment-contract-kit mock --webhook-url http://127.0.0.1:${DEFAULT_LISTEN_PORT}/webhooks     # in another terminal
  payment-contract-kit webhook listen --forward-to http://127.0.0.1:3000/webhooks/payment-status
  payment-contract-kit webhook listen --port 0 --signing-key "$WEBHOOK_SIGNING_KEY" --client-id my-client
`;

function usage(message: string): never {
  throw new UsageError(`webhook listen: ${message} Run "payment-contract-kit webhook listen --help" for the options.`);
}

/** The mock's config file, read as the mock reads it; its mistakes get this command's prefix and help pointer. */
function configFile(path: string) {
  try {
    return readConfigFile(path);
  } catch (error) {
    return usage((error as Error).message.replace(/^\[payment-contract-kit\]\s*/, ''));
  }
}

/** The flags, variables and config file, mapped to {@link startWebhookListener}'s options. */
export function parseWebhookListenArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { help: true } | { help: false; options: WebhookListenerOptions } {
  const parsed = parseFlags('webhook listen', webhookListenFlags, argv, env, { prefix: 'webhook listen: ' });
  if (parsed.help) return { help: true };
  const given = (key: string) => parsed.values.get(key) as string | undefined;
  const forwardTo = given('forwardTo');
  if (forwardTo !== undefined && !isHttpUrl(forwardTo))
    usage(`--forward-to must be an http(s) URL such as http://127.0.0.1:3000/webhooks, got "${forwardTo}".`);
  const clientId = given('clientId') ?? defaultCredentials.clientId;
  const config = given('config');
  const file = config === undefined ? {} : configFile(config);
  const fromFile = file.clients?.find((c) => c.clientId === clientId)?.signingKey ?? file.webhookSigningKey;
  const secret = given('standardWebhooksSecret') ?? file.standardWebhooksSecret;
  return {
    help: false,
    options: {
      port: (parsed.values.get('port') as number | undefined) ?? DEFAULT_LISTEN_PORT,
      host: given('host') ?? '127.0.0.1',
      signingKey: given('signingKey') ?? fromFile ?? defaultCredentials.webhookSigningKey,
      clientId,
      ...(secret === undefined ? {} : { standardWebhooksSecret: secret }),
      ...(forwardTo === undefined ? {} : { forwardTo }),
    },
  };
}

/** How a run ends: by default SIGINT / SIGTERM; tests pass a signal instead. */
export interface WebhookListenRunOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Stops the listener when aborted (instead of the process's signals). */
  readonly stop?: AbortSignal;
}

/**
 * Runs `webhook listen`: prints `payment-contract-kit webhook listen on <url>`, then one line per delivery, until
 * stopped; resolves with the exit code.
 *
 * @example
 * const stop = new AbortController();
 * const done = run(['--port', '0'], io, { stop: stop.signal });
 * // ... deliveries ...
 * stop.abort(); await done; // 0
 */
export async function run(
  argv: readonly string[],
  io: CommandIo = { stdout: process.stdout, stderr: process.stderr },
  runOptions: WebhookListenRunOptions = {},
): Promise<number> {
  const parsed = parseCommandLine(() => parseWebhookListenArgs(argv, runOptions.env ?? process.env), help, io);
  if (typeof parsed === 'number') return parsed;
  const { options } = parsed;
  let listener: Awaited<ReturnType<typeof startWebhookListener>>;
  try {
    listener = await startWebhookListener({ ...options, onDelivery: (d) => io.stdout.write(`${deliveryLine(d)}\n`) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? `port ${options.port} on ${options.host} is already in use: pick another with --port (0 picks a free one).`
        : (error as Error).message.replace(/^\[payment-contract-kit\] /, '');
    io.stderr.write(`${kitMessage(`webhook listen: ${why}`)}\n`);
    return error instanceof TypeError ? 2 : 1;
  }
  const forwarding = options.forwardTo === undefined ? '' : `, forwarding to ${options.forwardTo}`;
  io.stdout.write(`payment-contract-kit webhook listen on ${listener.url}${forwarding}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    if (runOptions.stop) {
      if (runOptions.stop.aborted) resolve();
      else runOptions.stop.addEventListener('abort', () => resolve(), { once: true });
    } else {
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    }
  });
  await listener.close();
  return 0;
}

export type { CommandIo } from '../command-line.ts';
