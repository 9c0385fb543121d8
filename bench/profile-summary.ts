/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): the functions with the most self time, and the share of each
 * package or source directory. For finding where the mock spends a workload's time.
 *
 * Usage: tsx bench/profile-summary.ts <file.cpuprofile> [top N]
 *
 * @module
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(['(idle)', '(program)']);

function frameName(node: ProfileNode): { name: string; where: string } {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, 'node_modules/');
  return { name: `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim(), where };
}

/**
 * Busy time (idle and "(program)" left out) per function, self and inclusive, and per module group, in
 * milliseconds, largest first.
 */
export function summarizeProfile(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  // Inclusive time: a node's self time plus its subtree's, counted once per function on each stack.
  const inclusiveOf = new Map<number, number>();
  const inclusive = (id: number): number => {
    const known = inclusiveOf.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const ms = (selfMs.get(id) ?? 0) + (node.children ?? []).reduce((sum, child) => sum + inclusive(child), 0);
    inclusiveOf.set(id, ms);
    return ms;
  };
  const inclusiveByName = new Map<string, number>();
  const walk = (id: number, onStack: Set<string>) => {
    const node = byId.get(id)!;
    const { name } = frameName(node);
    const fresh = !onStack.has(name);
    if (fresh) inclusiveByName.set(name, (inclusiveByName.get(name) ?? 0) + inclusive(id));
    const next = fresh ? new Set(onStack).add(name) : onStack;
    for (const child of node.children ?? []) walk(child, next);
  };
  const rootNode = profile.nodes[0];
  if (rootNode) walk(rootNode.id, new Set());
  const functions = new Map<string, number>();
  const groups = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of selfMs) {
    const node = byId.get(id)!;
    if (IDLE.has(node.callFrame.functionName)) continue;
    const { functionName } = node.callFrame;
    const { name, where } = frameName(node);
    total += ms;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    const group = where.startsWith('node_modules/')
      ? where
          .split('/')
          .slice(0, where.startsWith('node_modules/@') ? 3 : 2)
          .join('/')
      : where.startsWith('node:')
        ? 'node: internals'
        : where === ''
          ? functionName || '(native)'
          : where.replace(/\/[^/]*$/, '');
    groups.set(group, (groups.get(group) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  for (const name of inclusiveByName.keys()) if (IDLE.has(name) || name === '(root)') inclusiveByName.delete(name);
  return { totalMs: total, functions: sorted(functions), groups: sorted(groups), inclusive: sorted(inclusiveByName) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, topArg] = process.argv.slice(2);
  if (!file) throw new Error('[payment-contract-kit] usage: tsx bench/profile-summary.ts <file.cpuprofile> [top N]');
  const top = Number(topArg ?? 30);
  const { totalMs, functions, groups, inclusive } = summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  const pct = (ms: number) => `${((ms / totalMs) * 100).toFixed(1).padStart(5)}%`;
  console.log(`busy ${totalMs.toFixed(0)} ms sampled (percentages of busy time)\n\nby group (self):`);
  for (const [name, ms] of groups.slice(0, 15)) console.log(`${pct(ms)}  ${name}`);
  console.log('\nby function (self time):');
  for (const [name, ms] of functions.slice(0, top)) console.log(`${pct(ms)}  ${name}`);
  console.log('\nby function (inclusive time):');
  for (const [name, ms] of inclusive.slice(0, top)) console.log(`${pct(ms)}  ${name}`);
}
