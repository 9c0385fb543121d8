/**
 * The static check of one asynchronous message against the payment status webhook of openapi.yaml: the contents
 * fit the webhook payload schema, and the metadata carries the webhook's headers under their documented names.
 *
 * @module
 */
import { checkJsonSchema } from './json-schema-check.ts';
import type { Mismatch } from './mismatch.ts';
import type { OpenApiDocument } from './openapi-document.ts';
import type { MessageInteraction, NameValues } from './pact-model.ts';
import { checkHeaders } from './rest-interaction-check.ts';
import { scalarText } from './scalar-text.ts';

/** The webhook of openapi.yaml the kit's messages describe. */
export const webhookName = 'paymentStatus';

/** Metadata keys Pact libraries add on their own, besides the message's headers. */
const pactMetadata = new Set(['contenttype', 'content-type', 'destination', 'topic']);

/**
 * Checks a message interaction; empty when it agrees with the webhook in openapi.yaml.
 *
 * @example
 * checkMessage(interaction, loadOpenApi()); // [] for the kit's webhook messages
 */
export function checkMessage(interaction: MessageInteraction, document: OpenApiDocument): Mismatch[] {
  const out: Mismatch[] = [];
  const webhook = document.webhooks.get(webhookName);
  const source = document.source;
  if (!webhook) {
    out.push({
      area: 'interaction',
      path: `webhooks.${webhookName}`,
      message: 'openapi.yaml has no such webhook',
      expected: `webhooks.${webhookName} in ${source}`,
    });
    return out;
  }
  const what = `the ${webhookName} webhook`;
  const schema = webhook.requestBody?.schema;
  if (!interaction.contents.present) {
    out.push({
      area: 'message.contents',
      path: '$',
      message: 'no contents',
      expected: `the webhook payload (${source})`,
    });
  } else if (schema) {
    checkJsonSchema(
      { resolve: document.resolve, rules: interaction.rules.body, area: 'message.contents', source, out },
      interaction.contents.value,
      schema,
      [],
    );
  }
  const metadata: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(interaction.metadata))
    if (!pactMetadata.has(name.toLowerCase())) metadata[name] = [scalarText(value)];
  checkHeaders(metadata as NameValues, webhook.headers, what, source, out, 'message.metadata');
  return out;
}
