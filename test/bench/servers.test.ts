import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isMockServer, mockCliArgs, serverCommand, setBaseline, steadyNodeFlags } from '../../bench/servers.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A checkout-like directory whose package.json names `bin` as its CLI; `built` writes that file. */
function checkout(bin: string, built: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'pck-baseline-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ bin: { 'payment-contract-kit': bin } }));
  if (built) {
    mkdirSync(dirname(join(dir, bin)), { recursive: true });
    writeFileSync(join(dir, bin), '');
  }
  return dir;
}

describe('bench --baseline', () => {
  it('refuses a directory without a built CLI, saying how to build one', () => {
    expect(() => setBaseline(checkout('dist/cli/index.js', false))).toThrow(/holds no built CLI.*npm run build/);
    expect(() => setBaseline(join(tmpdir(), 'pck-no-such-checkout'))).toThrow(/holds no built CLI/);
  });

  it("starts the baseline with that checkout's CLI and the mock's own flags", async () => {
    const dir = checkout('dist/cli/index.js', true);
    setBaseline(dir);
    const command = await serverCommand('baseline');
    expect(command.command).toBe(process.execPath);
    expect(command.args).toEqual([join(dir, 'dist/cli/index.js'), ...mockCliArgs]);
    expect(command.address).toBe('stdout');
  });

  it('treats the baseline as a mock for sessions and checks, and no reference as one', () => {
    expect(isMockServer('mock')).toBe(true);
    expect(isMockServer('baseline')).toBe(true);
    for (const id of ['rest-token', 'graphql-execute', 'prism', 'yoga', 'apollo'] as const) {
      expect(isMockServer(id)).toBe(false);
    }
  });
});

describe('steady servers', () => {
  it('start every Node server with the memory reducer off, and only when asked', async () => {
    for (const id of ['mock', 'rest-token', 'graphql-execute', 'yoga', 'apollo', 'proxy'] as const) {
      const steady = await serverCommand(id, { steady: true });
      expect(steady.command).toBe(process.execPath);
      expect(steady.args.slice(0, steadyNodeFlags.length)).toEqual([...steadyNodeFlags]);
      const shipped = await serverCommand(id);
      expect(shipped.args).not.toContain('--no-memory-reducer');
    }
  });

  it("run Prism's Node script under this Node with the flags, and its bin as shipped otherwise", async () => {
    const steady = await serverCommand('prism', { steady: true });
    expect(steady.command).toBe(process.execPath);
    expect(steady.args.slice(0, steadyNodeFlags.length)).toEqual([...steadyNodeFlags]);
    expect(steady.args[steadyNodeFlags.length]).toMatch(/prism-cli.*\.js$/);
    expect(steady.args).toContain('mock');
    const shipped = await serverCommand('prism');
    expect(shipped.command).toMatch(/node_modules\/\.bin\/prism$/);
    expect(shipped.args).not.toContain('--no-memory-reducer');
  });
});
