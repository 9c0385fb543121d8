/**
 * openapi.yaml, read for the static checks: its paths, operations, header parameters, request and response schemas,
 * and the payment status webhook, with every local `$ref` followed. The file is the kit's own, read through the
 * one reader of shipped files, so the check reads exactly what the package (or the single executable) ships.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { kitMessage } from '../../internal/messages.ts';
import { packagedFilesLocation, readPackagedFile } from '../../internal/package-files.ts';
import { isPlainObject } from '../../internal/plain-object.ts';

/** A JSON Schema object of the document (OpenAPI 3.1 schemas are JSON Schema 2020-12). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** A header parameter of an operation or of the webhook. */
export interface HeaderParameter {
  /** The name as openapi.yaml writes it. */
  readonly name: string;
  readonly required: boolean;
}

/** One operation (a method of a path, or the webhook's POST). */
export interface OpenApiOperation {
  readonly method: string;
  readonly path: string;
  readonly headers: readonly HeaderParameter[];
  /** The JSON schema of the request body; undefined when the operation takes none. */
  readonly requestBody: { readonly required: boolean; readonly schema: JsonSchema | undefined } | undefined;
  /** Documented statuses (`"200"`, `"4XX"`, `"default"`) and the JSON schema of each one's body, if any. */
  readonly responses: ReadonlyMap<string, JsonSchema | undefined>;
}

/** openapi.yaml, resolved. */
export interface OpenApiDocument {
  /** Where it was read from, for the reports. */
  readonly source: string;
  /** Operations by path, then by upper-case method. */
  readonly paths: ReadonlyMap<string, ReadonlyMap<string, OpenApiOperation>>;
  /** Webhook operations by name (`paymentStatus`). */
  readonly webhooks: ReadonlyMap<string, OpenApiOperation>;
  /** Follows a local `$ref` (`#/components/schemas/TokenPair`); the schema itself when it has none. */
  readonly resolve: (schema: JsonSchema) => JsonSchema;
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Reads an OpenAPI document from its parsed form.
 *
 * @example
 * const doc = openApiFromObject(parseYaml(text), 'openapi.yaml');
 * doc.paths.get('/api/v2/accounting/token/generate-token')?.get('POST')?.headers; // x-client-id, x-api-key
 */
export function openApiFromObject(raw: unknown, source: string): OpenApiDocument {
  if (!isPlainObject(raw) || typeof raw.openapi !== 'string')
    throw new Error(kitMessage(`${source} is not an OpenAPI document (no "openapi" version field).`));
  const root = raw;
  const resolve = (schema: JsonSchema): JsonSchema => {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) {
      const ref = current.$ref as string;
      if (!ref.startsWith('#/')) throw new Error(kitMessage(`${source}: only local $refs are read, found "${ref}".`));
      let target: unknown = root;
      for (const part of ref.slice(2).split('/')) {
        const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
        target = isPlainObject(target) ? target[key] : undefined;
      }
      if (!isPlainObject(target)) throw new Error(kitMessage(`${source}: $ref "${ref}" points at nothing.`));
      current = target;
    }
    return current;
  };
  const jsonSchemaOf = (content: unknown): JsonSchema | undefined => {
    if (!isPlainObject(content)) return undefined;
    const media = content['application/json'];
    return isPlainObject(media) && isPlainObject(media.schema) ? media.schema : undefined;
  };
  const operation = (path: string, method: string, pathItem: JsonSchema, raw: JsonSchema): OpenApiOperation => {
    const parameters = [
      ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
      ...(Array.isArray(raw.parameters) ? raw.parameters : []),
    ]
      .filter(isPlainObject)
      .map(resolve)
      .filter((p) => p.in === 'header' && typeof p.name === 'string')
      .map((p) => ({ name: p.name as string, required: p.required === true }));
    const body = isPlainObject(raw.requestBody) ? resolve(raw.requestBody) : undefined;
    const responses = new Map<string, JsonSchema | undefined>();
    if (isPlainObject(raw.responses))
      for (const [status, response] of Object.entries(raw.responses))
        responses.set(status, isPlainObject(response) ? jsonSchemaOf(resolve(response).content) : undefined);
    return {
      method: method.toUpperCase(),
      path,
      headers: parameters,
      requestBody: body ? { required: body.required === true, schema: jsonSchemaOf(body.content) } : undefined,
      responses,
    };
  };
  const operationsOf = (path: string, item: unknown) => {
    const byMethod = new Map<string, OpenApiOperation>();
    if (!isPlainObject(item)) return byMethod;
    const pathItem = resolve(item);
    for (const method of methods) {
      const raw = pathItem[method];
      if (isPlainObject(raw)) byMethod.set(method.toUpperCase(), operation(path, method, pathItem, raw));
    }
    return byMethod;
  };
  const paths = new Map<string, ReadonlyMap<string, OpenApiOperation>>();
  if (isPlainObject(root.paths))
    for (const [path, item] of Object.entries(root.paths)) paths.set(path, operationsOf(path, item));
  const webhooks = new Map<string, OpenApiOperation>();
  if (isPlainObject(root.webhooks))
    for (const [name, item] of Object.entries(root.webhooks)) {
      const post = operationsOf(name, item).get('POST');
      if (post) webhooks.set(name, post);
    }
  return { source, paths, webhooks, resolve };
}

/**
 * Reads openapi.yaml: the package's own (read where the kit's shipped files are: beside the package, or inside the
 * single executable) unless `file` is given.
 *
 * @example
 * const doc = loadOpenApi();
 */
export function loadOpenApi(file?: string): OpenApiDocument {
  let text: string;
  if (file !== undefined) text = readFileSync(file, 'utf8');
  else {
    const packaged = readPackagedFile('openapi.yaml');
    if (packaged === undefined)
      throw new Error(
        kitMessage(`openapi.yaml was not found in ${packagedFilesLocation()}; reinstall payment-contract-kit.`),
      );
    text = packaged.toString('utf8');
  }
  return openApiFromObject(parseYaml(text), 'openapi.yaml');
}
