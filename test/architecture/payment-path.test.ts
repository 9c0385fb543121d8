/**
 * How many files and folders of `src/mock` one payment runs through: the functions V8 calls while the mock answers a
 * processPaymentRequest over HTTP (precise coverage of that one request, once graphql-jit has loaded and compiled
 * the operation), grouped by the file that holds them. The redesign of the core aims at about 15 files in 3 folders;
 * the ceilings below are today's figures and may only come down, so a layer added to the payment's way fails here.
 * Settlement and webhooks are left out by a settlement delay of an hour: only the request's own path is counted.
 * Under the test runner a module's exports are read through getters, so a file also counts when the path only reads
 * one of its exports (an error class it tests with `instanceof`, a constant): it is still a file the reader follows.
 *
 * @module
 */
import { Session } from 'node:inspector/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/control-types.ts';
import { startMockServer } from '../../src/mock/server.ts';
import { nodeJitLoader } from '../support/mock-internals/graphql.ts';
import { paidUuid, sandboxClient } from '../support/sandbox-client.ts';

/** Files of `src/mock` a payment may run through: today's count, lowered whenever the path loses a file. */
const MAX_FILES = 27;
/** Folders those files may be in: today's count, lowered likewise. */
const MAX_FOLDERS = 3;

const ROOT = join(import.meta.dirname, '..', '..');
const MOCK_DIR = join(ROOT, 'src', 'mock');

let server: MockServer;
let files: string[];

beforeAll(async () => {
  server = await startMockServer({ port: 0, log: false, requestLog: false, settleDelayMs: 3_600_000 });
  const client = sandboxClient(fetch, server.url);
  const token = (await client.generate()).body.data.token as string;
  // The first payment starts loading graphql-jit and may be answered by graphql-js; the second, once it has loaded,
  // compiles the operation. The third is the one measured: the path every later payment takes.
  expect(paidUuid(await client.pay(token))).toBeDefined();
  await nodeJitLoader.load();
  expect(nodeJitLoader.loaded(), 'graphql-jit loads').toBeDefined();
  expect(paidUuid(await client.pay(token))).toBeDefined();

  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    await session.post('Profiler.takePreciseCoverage');
    const answer = await client.pay(token);
    const { result } = await session.post('Profiler.takePreciseCoverage');
    expect(paidUuid(answer), JSON.stringify(answer.body)).toBeDefined();
    files = result
      .filter((script) => script.url.startsWith('file:'))
      .map((script) => ({
        path: fileURLToPath(script.url),
        called: script.functions.some((f) => f.ranges[0]!.count > 0),
      }))
      .filter(({ path, called }) => called && path.startsWith(`${MOCK_DIR}/`))
      .map(({ path }) => relative(ROOT, path))
      .sort();
  } finally {
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
  }
});

afterAll(() => server.close());

describe("a payment's path through src/mock", () => {
  it(`runs through at most ${MAX_FILES} files`, () => {
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(MAX_FILES);
  });

  it(`runs through at most ${MAX_FOLDERS} folders`, () => {
    const folders = [...new Set(files.map((file) => dirname(file)))].sort();
    expect(folders.length, folders.join('\n')).toBeLessThanOrEqual(MAX_FOLDERS);
  });

  it('has ceilings that say where the path stands (lower them when it shrinks)', () => {
    const folders = new Set(files.map((file) => dirname(file)));
    expect({ files: files.length, folders: folders.size }).toEqual({ files: MAX_FILES, folders: MAX_FOLDERS });
  });
});
