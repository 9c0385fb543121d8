// The one seam where the kit reads its shipped files (src/internal/package-files.ts), in process: from disk for the
// npm package, and from an installed source, as the single executable installs its assets. Every reader the CLI has
// (the published sources, the pages' assets, verify's openapi.yaml, --version) goes through it; and the executable's
// verify explains that its dynamic half is not there. Fast: no executable is built here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/verify.ts';
import {
  installPackagedFiles,
  type PackagedFileSource,
  packageRoot,
  readPackagedFile,
} from '../../src/internal/package-files.ts';
import { markSingleExecutable } from '../../src/internal/single-executable.ts';
import { createMockApp } from '../../src/mock/index.ts';
import { dynamicUnavailableReason } from '../../src/pact/verify/dynamic-seam.ts';
import { loadOpenApi } from '../../src/pact/verify/openapi-document.ts';
import { createAssetStore } from '../support/mock-internals/ui.ts';

const root = join(import.meta.dirname, '../..');
const onDisk = (relative: string) => readFileSync(join(root, relative));

/** A source over a map, as the executable's assets are: only the files it holds. */
function sourceOf(files: Record<string, string>): PackagedFileSource & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    description: 'the test executable',
    read(relative) {
      asked.push(relative);
      const text = files[relative];
      return text === undefined ? undefined : new TextEncoder().encode(text);
    },
  };
}

const apps: { close(): Promise<void> }[] = [];
afterEach(async () => {
  installPackagedFiles(undefined);
  markSingleExecutable(false);
  for (const app of apps.splice(0)) await app.close();
});

function app(options: Parameters<typeof createMockApp>[0] = {}) {
  const created = createMockApp({ log: false, ...options });
  apps.push(created);
  return created;
}

describe('shipped files through one reader', () => {
  it('reads from the package folder when nothing is installed', () => {
    expect(packageRoot()).toBe(root);
    expect(readPackagedFile('openapi.yaml')).toEqual(onDisk('openapi.yaml'));
    expect(readPackagedFile('no-such-file.txt')).toBeUndefined();
  });

  it('reads from the installed source instead of the disk, for the published sources and the pages', async () => {
    const source = sourceOf({
      'schema.graphql': 'type Query { fromTheSource: Int }\n',
      'generated/legacy/schema.graphql': 'type Query { legacyFromTheSource: Int }\n',
      'openapi.yaml': 'openapi: 3.1.0\n',
      'dist/ui/manifest.json': JSON.stringify({ 'graphiql.js': 'graphiql.0123456789.js' }),
      'dist/ui/graphiql.0123456789.js': 'console.log("from the source")',
    });
    installPackagedFiles(source);
    expect(packageRoot()).toBeUndefined();
    const mock = app({ guide: 'both' });
    const schema = await mock.fetch(new Request('http://127.0.0.1/__pck/schema.graphql'));
    expect(await schema.text()).toBe('type Query { fromTheSource: Int }\n');
    const legacy = await mock.fetch(new Request('http://127.0.0.1/__pck/schema.graphql?guide=legacy'));
    expect(await legacy.text()).toBe('type Query { legacyFromTheSource: Int }\n');
    expect(await (await mock.fetch(new Request('http://127.0.0.1/__pck/openapi.yaml'))).text()).toBe(
      'openapi: 3.1.0\n',
    );

    const assets = createAssetStore();
    const js = assets.get('graphiql.js');
    expect(typeof js === 'string' ? js : new TextDecoder().decode(js.contents)).toBe('console.log("from the source")');
    expect(assets.url('/__pck/ui/assets/', 'graphiql.js')).toBe('/__pck/ui/assets/graphiql.js?v=0123456789');
    // An asset the source lacks is "not built", not a crash.
    expect(assets.get('dashboard.js')).toMatch(/not built/);
    expect(source.asked).toContain('dist/ui/manifest.json');
  });

  it('answers a file missing from the source as a broken install, naming where it looked', async () => {
    installPackagedFiles(sourceOf({}));
    const res = await app().fetch(new Request('http://127.0.0.1/__pck/openapi.yaml'));
    expect(res.status).toBe(500);
    expect(() => loadOpenApi()).toThrow(/openapi\.yaml was not found in the test executable; reinstall/);
  });

  it("verify reads openapi.yaml through it: the executable's copy is the one checked against", () => {
    installPackagedFiles(sourceOf({ 'openapi.yaml': onDisk('openapi.yaml').toString('utf8') }));
    const doc = loadOpenApi();
    expect([...doc.paths.keys()]).toContain('/api/v2/accounting/token/generate-token');
  });
});

describe("the executable's verify", () => {
  it('has a dynamic half in the npm package, and says why not and how to replay the pacts in the executable', () => {
    expect(dynamicUnavailableReason()).toBeUndefined();
    markSingleExecutable();
    const reason = dynamicUnavailableReason();
    expect(reason).toMatch(/^\[payment-contract-kit\] verify: dynamic verification is not part of/);
    expect(reason).toContain('npx payment-contract-kit verify');
    expect(reason).toContain('/__pck/provider-states');
    expect(reason).toContain('--static-only');
  });

  it('prints the static results, the reason on standard error, and exits 1; --static-only exits 0', async () => {
    markSingleExecutable();
    let loaded = false;
    const deps = {
      loadDynamic: async () => {
        loaded = true;
        return undefined;
      },
      pactInstalled: () => true,
      openapi: () => loadOpenApi(),
      dynamicUnavailable: dynamicUnavailableReason,
    };
    const out = { stdout: '', stderr: '' };
    const io = {
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
    };
    expect(await run([join(root, 'contracts')], io, deps)).toBe(1);
    expect(loaded).toBe(false);
    expect(out.stdout).toMatch(/^PASS static /m);
    expect(out.stdout).not.toMatch(/^FAIL/m);
    expect(out.stdout).toMatch(/; dynamic not available(;|$)/m);
    expect(out.stderr).toContain('not part of the payment-contract-kit executable');
    out.stdout = '';
    out.stderr = '';
    expect(await run([join(root, 'contracts'), '--static-only'], io, deps)).toBe(0);
    expect(out.stderr).toBe('');
  });
});
