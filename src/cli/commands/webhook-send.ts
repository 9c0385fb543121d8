/**
 * `payment-contract-kit webhook send`: sends one sample payment status webhook, built with `buildTestWebhookRequest`,
 * to a receiver under development and prints what it answered, like `stripe trigger`. The handler only maps flags to
 * that function's options; the request is exactly what the kit's mock would send.
 *
 * @module
 */
import { defaultAssumptions } from '../../assumptions.ts';
import { defaultCredentials } from '../../contract/service-names.ts';
import { jsonDepthWithin } from '../../internal/json-depth.ts';
import { kitMessage } from '../../internal/messages.ts';
import { feeList } from '../../mock/index.ts';
import { buildTestWebhookRequest } from '../../webhook/test-request.ts';
import { type CommandIo, parseCommandLine, parseFlags, UsageError } from '../command-line.ts';

const DEFAULT_SIGNING_KEY = defaultCredentials.webhookSigningKey;
const DEFAULT_CLIENT_ID = defaultCredentials.clientId;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_AMOUNT = 100;
// The first card type of the fee table (visa), the card the mock's test cards use unless told otherwise.
const DEFAULT_CARD_TYPE = defaultAssumptions.feeTable[0]!.card_type;
const cardTypes = defaultAssumptions.feeTable.map((rule) => rule.card_type);

/** Help text, with examples. */
export const help = `Usage: payment-contract-kit webhook send --url <url> [--status <success|failure>] [options]

Sends one payment status webhook to a receiver under development and prints its answer.

Options:
  --url <url>                        Receiver URL (http or https). Required.
  --status <success|failure>         Final status to report. Default success.
  --signing-key <key>                Sent in ${defaultAssumptions.webhook.signingKeyHeader}. Default ${DEFAULT_SIGNING_KEY}.
  --client-id <id>                   Sent in ${defaultAssumptions.webhook.clientIdHeader}. Default ${DEFAULT_CLIENT_ID}.
  --metadata <json>                  JSON object echoed as "metadata", e.g. '{"order":"A-1"}'.
  --amount <number>                  Payment amount. Default ${DEFAULT_AMOUNT}.
  --card-type <type>                 Card type the fee is computed for, from the mock's fee table
                                     (${cardTypes.join(', ')}). Default ${DEFAULT_CARD_TYPE}.
  --uuid <id>                        Payment uuid. Default a random UUID.
  --standard-webhooks-secret <whsec_...>
                                     Also sign with Standard Webhooks (webhook-id, -timestamp, -signature).
  --timeout <ms>                     How long to wait for the answer. Default ${DEFAULT_TIMEOUT_MS}.
  -h, --help                         Show this help.

Exit status: 0 when the receiver answers 2xx, 1 for any other answer or none, 2 for bad flags.

Examples:
  payment-contract-kit webhook send --url http://127.0.0.1:3000/webhooks --status success
  payment-contract-kit webhook send --url http://127.0.0.1:3000/webhooks --status failure \\
    --signing-key "$WEBHOOK_SIGNING_KEY" --client-id my-client --metadata '{"order":"A-1"}' --amount 42.5
  payment-contract-kit webhook send --url http://127.0.0.1:3000/webhooks --status success \\
    --standard-webhooks-secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
`;

/** One line: what is wrong with which flag, and where the options are listed. */
function usage(message: string): never {
  throw new UsageError(
    kitMessage(`webhook send: ${message} Run "payment-contract-kit webhook send --help" for the options.`),
  );
}

/** The flags, checked and mapped to `buildTestWebhookRequest` options. */
function parse(argv: readonly string[]) {
  const { values } = parseFlags(
    argv,
    {
      url: { type: 'string' },
      status: { type: 'string' },
      'signing-key': { type: 'string' },
      'client-id': { type: 'string' },
      metadata: { type: 'string' },
      amount: { type: 'string' },
      'card-type': { type: 'string' },
      uuid: { type: 'string' },
      'standard-webhooks-secret': { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    usage,
    false,
  );
  if (values.help) return { help: true as const };
  const str = (name: string) => values[name] as string | undefined;

  const url = str('url');
  if (!url)
    usage('--url is required: the address of your webhook receiver, e.g. --url http://127.0.0.1:3000/webhooks.');
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return usage(`--url "${url}" is not an absolute URL; give e.g. http://127.0.0.1:3000/webhooks.`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    usage(`--url must be http or https, got ${target.protocol.slice(0, -1)}.`);

  const status = str('status') ?? 'success';
  if (status !== 'success' && status !== 'failure') usage(`--status must be success or failure, got "${status}".`);

  let metadata: Record<string, unknown> | undefined;
  const rawMetadata = str('metadata');
  if (rawMetadata !== undefined) {
    // The payload is serialized (and signed) after this: metadata nested thousands of levels ran JSON.stringify out
    // of stack. The service never sends deeper metadata than the ledger's bound, which the mock enforces on arrival.
    const { maxMetadataDepth } = defaultAssumptions.bounds;
    if (!jsonDepthWithin(rawMetadata, maxMetadataDepth))
      usage(
        `--metadata nests more than ${maxMetadataDepth} levels deep, deeper than the service delivers (bounds.maxMetadataDepth in the ledger); send flatter metadata.`,
      );
    try {
      metadata = JSON.parse(rawMetadata);
    } catch {
      usage(`--metadata must be a JSON object, e.g. --metadata '{"order":"A-1"}'; "${rawMetadata}" is not JSON.`);
    }
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
      usage(`--metadata must be a JSON object, e.g. --metadata '{"order":"A-1"}'; got ${rawMetadata}.`);
  }

  const number = (name: string, check: (n: number) => boolean, what: string) => {
    const raw = str(name);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) usage(`--${name} must be ${what}, got "${raw}".`);
    return n;
  };
  const amount = number('amount', (n) => n > 0, 'a number greater than 0') ?? DEFAULT_AMOUNT;
  // The fee the mock itself would charge for this amount and card type: its public fee list (same table, rounding).
  const cardType = str('card-type') ?? DEFAULT_CARD_TYPE;
  const fee = feeList(amount, defaultAssumptions).find((entry) => entry.card_type === cardType)?.fees;
  if (fee === undefined)
    usage(`--card-type must be one of ${cardTypes.join(', ')} (the fee table), got "${cardType}".`);
  const timeoutMs =
    number('timeout', (n) => Number.isInteger(n) && n > 0, 'a whole number of milliseconds') ?? DEFAULT_TIMEOUT_MS;

  for (const name of ['signing-key', 'client-id', 'uuid'] as const)
    if (str(name) === '') usage(`--${name} must not be empty.`);
  const secret = str('standard-webhooks-secret');
  if (secret !== undefined && !/^(whsec_)?[A-Za-z0-9+/=]+$/.test(secret))
    usage('--standard-webhooks-secret must be a Standard Webhooks secret: "whsec_" followed by base64.');

  return {
    help: false as const,
    url: target,
    timeoutMs,
    request: {
      signingKey: str('signing-key') ?? DEFAULT_SIGNING_KEY,
      clientId: str('client-id') ?? DEFAULT_CLIENT_ID,
      payload: {
        status: defaultAssumptions.statusNames[status],
        amount,
        payment_gateway_fee: fee,
        ...(str('uuid') === undefined ? {} : { uuid: str('uuid') }),
        ...(metadata === undefined ? {} : { metadata }),
      },
      ...(secret === undefined ? {} : { standardWebhooks: { secret } }),
    },
  };
}

/**
 * Runs `webhook send` with the arguments after the command name; resolves with the exit code.
 *
 * @example
 * await run(['--url', 'http://127.0.0.1:3000/webhooks', '--status', 'success']);
 */
export async function run(
  argv: readonly string[],
  io: CommandIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const flags = parseCommandLine(() => parse(argv), help, io);
  if (typeof flags === 'number') return flags;
  const { headers, body, payload } = buildTestWebhookRequest(flags.request);
  io.stdout.write(`> POST ${flags.url.href}\n`);
  for (const [name, value] of Object.entries(headers)) io.stdout.write(`> ${name}: ${value}\n`);
  io.stdout.write(`> ${body}\n\n`);
  let response: Response;
  try {
    response = await fetch(flags.url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(flags.timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${flags.timeoutMs} ms (raise --timeout, or check that the handler ends the response)`
        : `${cause?.code ?? cause?.message ?? (error as Error).message} (is the receiver running and listening on ${flags.url.host}?)`;
    io.stderr.write(kitMessage(`webhook send: ${why}.\n`));
    return 1;
  }
  const text = await response.text();
  io.stdout.write(`< ${response.status} ${response.statusText}\n`);
  if (text) io.stdout.write(`< ${text}\n`);
  const ok = response.status >= 200 && response.status < 300;
  io.stdout.write(
    ok
      ? `\nDelivered payment ${payload.uuid} (${payload.status}).\n`
      : `\nThe receiver answered ${response.status}; the payment service would retry this delivery with the same ${defaultAssumptions.webhook.deliveryIdHeader}.\n`,
  );
  return ok ? 0 : 1;
}

export type { CommandIo } from '../command-line.ts';
