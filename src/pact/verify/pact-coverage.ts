/**
 * `verify --coverage`: which behaviours of the service (src/contract/coverage) a set of pacts' interactions
 * exercise, read from each interaction's request and expected answer with the same functions the mock's collector
 * uses. A GraphQL interaction covers its root fields in its guide, its 7.2 reason or 7.3 paths, and an accepted
 * payment by card details or by `card_account_uid`; a REST interaction its token endpoint's answer; a webhook message
 * its final status.
 *
 * @module
 */
import { Kind, parse } from 'graphql/index.js';
import type { Assumptions } from '../../assumptions.ts';
import { behaviourCatalogue } from '../../contract/coverage/catalogue.ts';
import {
  type AnsweredRequest,
  behavioursOfPayment,
  behavioursOfRequest,
  behavioursOfSettlement,
} from '../../contract/coverage/observe.ts';
import { type CoverageReport, coverageReport } from '../../contract/coverage/report.ts';
import type { GuideName } from '../../contract/guides.ts';
import { serviceHeaders, servicePaths } from '../../contract/service-names.ts';
import { isPlainObject } from '../../internal/plain-object.ts';
import type { HttpInteraction, MessageInteraction, PactDocument } from './pact-model.ts';

/** The root fields a GraphQL request body selects, or none when it does not parse. */
function rootFieldsOf(query: unknown, operationName: unknown): string[] {
  if (typeof query !== 'string') return [];
  try {
    const operations = parse(query).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    const op = operations.find((o) => o.name?.value === operationName) ?? operations[0];
    return (op?.selectionSet.selections ?? []).flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
  } catch {
    return [];
  }
}

/** The first error's reason and every 7.3 path of an expected GraphQL answer. */
function errorsOf(body: unknown): { reason: string | undefined; validation: string[] | undefined } {
  const errors = isPlainObject(body) && Array.isArray(body.errors) ? body.errors : [];
  let reason: string | undefined;
  const paths: string[] = [];
  for (const e of errors) {
    const ext = isPlainObject(e) && isPlainObject(e.extensions) ? e.extensions : undefined;
    if (reason === undefined && typeof ext?.reason === 'string') reason = ext.reason;
    if (isPlainObject(ext?.validation)) paths.push(...Object.keys(ext.validation));
  }
  return { reason, validation: paths.length > 0 ? paths : undefined };
}

function hasHeader(interaction: HttpInteraction, name: string): boolean {
  return Object.keys(interaction.request.headers).some((h) => h.toLowerCase() === name);
}

function httpBehaviours(interaction: HttpInteraction, guide: GuideName, a: Assumptions): string[] {
  const { request, response } = interaction;
  const path = request.path.split('?')[0]!;
  if (path !== servicePaths.graphql) {
    // A 401 on generate-token, or without both credential headers, refused the credentials; else the refresh token.
    const credentials =
      hasHeader(interaction, serviceHeaders.clientId) && hasHeader(interaction, serviceHeaders.apiKey);
    const authenticated = path !== servicePaths.generateToken && credentials;
    return behavioursOfRequest({ path, status: response.status, authenticated }, a);
  }
  const sent = request.body.present && isPlainObject(request.body.value) ? request.body.value : {};
  const answer = response.body.present ? response.body.value : undefined;
  const observed: AnsweredRequest = {
    path,
    status: response.status,
    guide,
    rootFields: rootFieldsOf(sent.query, sent.operationName),
    ...errorsOf(answer),
  };
  const ids = behavioursOfRequest(observed, a);
  const data = isPlainObject(answer) && isPlainObject(answer.data) ? answer.data : undefined;
  if (isPlainObject(data?.processPaymentRequest)) {
    const input = isPlainObject(sent.variables) && isPlainObject(sent.variables.input) ? sent.variables.input : {};
    const card = isPlainObject(input.credit_card) ? input.credit_card : {};
    ids.push(...behavioursOfPayment({ guide, byCardAccount: typeof card.card_account_uid === 'string' }));
  }
  return ids;
}

function messageBehaviours(message: MessageInteraction, a: Assumptions): string[] {
  const contents = message.contents.present ? message.contents.value : undefined;
  const status = isPlainObject(contents) ? contents.status : undefined;
  const outcome =
    status === a.statusNames.success ? 'success' : status === a.statusNames.failure ? 'failure' : undefined;
  return outcome === undefined ? [] : [...behavioursOfSettlement(outcome), `webhook.${outcome}`];
}

/**
 * The coverage report of `pacts`; `guideOf` names the guide each interaction was checked against (the static
 * verification's), by file and description.
 *
 * @example
 * pactCoverage(pacts, (file, description) => guides.get(`${file}\u0000${description}`), defaultAssumptions);
 */
export function pactCoverage(
  pacts: readonly PactDocument[],
  guideOf: (file: string, description: string) => GuideName | undefined,
  assumptions: Assumptions,
): CoverageReport {
  const counts = new Map<string, number>();
  for (const pact of pacts)
    for (const interaction of pact.interactions) {
      const ids =
        interaction.kind === 'http'
          ? httpBehaviours(interaction, guideOf(pact.file, interaction.description) ?? 'current', assumptions)
          : interaction.kind === 'message'
            ? messageBehaviours(interaction, assumptions)
            : [];
      for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  return coverageReport(behaviourCatalogue(assumptions), counts);
}
