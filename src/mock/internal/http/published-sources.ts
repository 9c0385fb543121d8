/**
 * The published sources at stable URLs: GET `/__pck/schema.graphql` (the served guide's published SDL: the package's
 * `schema.graphql`, or `generated/legacy/schema.graphql` for the legacy guide; `?guide=` picks one in `--guide
 * both`) and GET `/__pck/openapi.yaml`. Read from the package's files on each request through the platform's
 * reader, so what is served is what ships; a runtime without package files (a browser bundle) answers 404 saying
 * where to get them. These are control-API paths: same-origin or `controlCors` only, never journaled.
 *
 * @module
 */

import { publishedSchemaFiles } from '../../../contract/guides.ts';
import { kitMessage } from '../../../internal/messages.ts';
import { controlPrefix } from '../../../spec-names.ts';
import { restError } from '../http-error.ts';
import type { MockGuide } from '../option-types.ts';
import type { MockRequest, Outcome, RouteEntry } from './exchange.ts';
import type { Router } from './routes.ts';

/** The paths, for documentation and tests. */
export const publishedSourcePaths = {
  schema: `${controlPrefix}schema.graphql`,
  openapi: `${controlPrefix}openapi.yaml`,
} as const;

/** Reads a shipped file (the platform's reader); undefined where the runtime has no package files. */
export type PackageFileReader = ((relative: string) => Promise<Uint8Array | string>) | undefined;

async function serveFile(read: PackageFileReader, relative: string, contentType: string): Promise<Outcome> {
  if (read === undefined) {
    const file = relative === 'openapi.yaml' ? 'openapi.yaml' : 'schema.graphql';
    throw restError(
      404,
      kitMessage(
        `${controlPrefix}${file} is not served by the mock in a browser or worker (it has no package files); let your bundler load the package's own file, payment-contract-kit/${file}, instead.`,
      ),
    );
  }
  return { status: 200, text: await read(relative), headers: { 'content-type': contentType } };
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

/** Adds the two routes to `router`; `read` is the platform's package-file reader. */
export function registerPublishedSources(router: Router<RouteEntry>, guide: MockGuide, read: PackageFileReader): void {
  router.add('control', 'GET', publishedSourcePaths.schema, {
    handle: (request) => serveFile(read, publishedSchemaFiles[guideOf(request, guide)], 'text/plain; charset=utf-8'),
  });
  router.add('control', 'GET', publishedSourcePaths.openapi, {
    handle: () => serveFile(read, 'openapi.yaml', 'application/yaml; charset=utf-8'),
  });
}
