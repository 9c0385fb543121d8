/**
 * The static half of `verify`: every interaction of every pact checked against the service's documents, without
 * running anything. GraphQL interactions (`/graphql`) go to the GraphQL checks in their guide, other HTTP
 * interactions to openapi.yaml's paths, messages to its payment status webhook.
 *
 * @module
 */
import { servicePaths } from '../../contract/service-names.ts';
import { checkGraphqlInteraction } from './graphql-interaction-check.ts';
import { chooseGuide, type GuideOption, guideNamedBy } from './guide-choice.ts';
import { checkMessage } from './message-check.ts';
import { formatMismatch } from './mismatch.ts';
import type { OpenApiDocument } from './openapi-document.ts';
import type { PactDocument, PactInteraction } from './pact-model.ts';
import { checkRestInteraction } from './rest-interaction-check.ts';
import type { InteractionResult } from './verify-result.ts';

/** Options of {@link verifyStatic}. */
export interface StaticVerifyOptions {
  readonly guide: GuideOption;
  readonly openapi: OpenApiDocument;
}

function checkOne(pact: PactDocument, interaction: PactInteraction, options: StaticVerifyOptions): InteractionResult {
  const base = {
    file: pact.file,
    consumer: pact.consumer,
    provider: pact.provider,
    interaction: interaction.description,
    mode: 'static' as const,
    pending: interaction.pending,
  };
  if (interaction.kind === 'other') {
    return {
      ...base,
      kind: 'other',
      guide: undefined,
      ok: false,
      reasons: [
        `interaction type "${interaction.type}" is not part of the service (expected Synchronous/HTTP or Asynchronous/Messages)`,
      ],
    };
  }
  if (interaction.kind === 'message') {
    const mismatches = checkMessage(interaction, options.openapi);
    return {
      ...base,
      kind: 'message',
      guide: undefined,
      ok: mismatches.length === 0,
      reasons: mismatches.map(formatMismatch),
    };
  }
  if (interaction.request.path === servicePaths.graphql) {
    const { guide, mismatches } = chooseGuide(options.guide, guideNamedBy(pact.consumer, pact.provider), (g) =>
      checkGraphqlInteraction(interaction, g),
    );
    return { ...base, kind: 'graphql', guide, ok: mismatches.length === 0, reasons: mismatches.map(formatMismatch) };
  }
  const mismatches = checkRestInteraction(interaction, options.openapi);
  return {
    ...base,
    kind: 'rest',
    guide: undefined,
    ok: mismatches.length === 0,
    reasons: mismatches.map(formatMismatch),
  };
}

/**
 * Checks every interaction of the pacts; one result per interaction, in file order.
 *
 * @example
 * const results = verifyStatic([readPact(json, file)], { guide: 'both', openapi: loadOpenApi() });
 */
export function verifyStatic(pacts: readonly PactDocument[], options: StaticVerifyOptions): InteractionResult[] {
  return pacts.flatMap((pact) => pact.interactions.map((interaction) => checkOne(pact, interaction, options)));
}
