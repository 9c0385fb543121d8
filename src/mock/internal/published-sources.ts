/**
 * The published sources at stable URLs: GET `/__pck/schema.graphql` (the served guide's published SDL: the package's
 * `schema.graphql`, or `generated/legacy/schema.graphql` for the legacy guide; `?guide=` picks one in `--guide
 * both`) and GET `/__pck/openapi.yaml`. Read from the package's files on each request, so what is served is what
 * ships. These are control-API paths: same-origin or `controlCors` only, never journaled.
 *
 * @module
 */
import { kitMessage } from '../../internal/messages.ts';
import { packagedFilesLocation, readPackagedFile } from '../../internal/package-files.ts';
import { controlPrefix } from '../../spec-names.ts';
import type { MockGuide } from '../options.ts';
import { restError } from './errors.ts';
import type { MockRequest } from './http/exchange.ts';
import type { Outcome, RouteEntry } from './http/outcome.ts';
import type { Router } from './http/router.ts';

/** The paths, for documentation and tests. */
export const publishedSourcePaths = {
  schema: `${controlPrefix}schema.graphql`,
  openapi: `${controlPrefix}openapi.yaml`,
} as const;

/** Package file of each guide's published SDL. */
export const publishedSchemaFiles = {
  current: 'schema.graphql',
  legacy: 'generated/legacy/schema.graphql',
} as const;

async function serveFile(relative: string, contentType: string): Promise<Outcome> {
  const text = readPackagedFile(relative);
  // A missing shipped file is a broken install, not a caller's mistake: the pipeline answers it as a logged 500.
  if (text === undefined)
    throw new Error(
      kitMessage(`${relative} was not found in ${packagedFilesLocation()}; reinstall payment-contract-kit.`),
    );
  return { status: 200, text, headers: { 'content-type': contentType } };
}

/** Which guide's SDL a request asks for; throws the 7.1 answer for a guide not served. */
function guideOf(request: MockRequest, served: MockGuide): 'current' | 'legacy' {
  const asked = new URLSearchParams(request.query).get('guide');
  if (asked === null || asked === '') return served === 'legacy' ? 'legacy' : 'current';
  if (asked !== 'current' && asked !== 'legacy')
    throw restError(
      400,
      kitMessage(`${publishedSourcePaths.schema}: "guide" must be current or legacy; got "${asked.slice(0, 40)}".`),
    );
  if (served !== 'both' && asked !== served)
    throw restError(
      404,
      kitMessage(
        `${publishedSourcePaths.schema}: this mock serves the ${served} guide only; ask for ?guide=${served}, or start it with --guide both.`,
      ),
    );
  return asked;
}

/** Adds the two routes to `router`. */
export function registerPublishedSources(router: Router<RouteEntry>, guide: MockGuide): void {
  router.add('control', 'GET', publishedSourcePaths.schema, {
    handle: (request) => serveFile(publishedSchemaFiles[guideOf(request, guide)], 'text/plain; charset=utf-8'),
  });
  router.add('control', 'GET', publishedSourcePaths.openapi, {
    handle: () => serveFile('openapi.yaml', 'application/yaml; charset=utf-8'),
  });
}
