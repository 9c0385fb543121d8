/**
 * One property over one deployment: random command sequences, each answer compared with the reference model at
 * once, the receiver's webhooks checked after every command. A failure names its seed and fast-check's shrunk
 * counterexample (the replayable command list); `npm run test:model -- --seed S --path P` replays it.
 *
 * @module
 */
import fc from 'fast-check';
import {
  checkReceiver,
  modelCommands,
  nextRun,
  openingCommands,
  outcomes,
  type RealSide,
  ReferenceModel,
} from './commands.ts';
import type { Deployment } from './deployment.ts';

/** Options of {@link runModel}. */
export interface ModelRunOptions {
  readonly numRuns: number;
  readonly seed: number;
  readonly maxCommands: number;
  /** fast-check's replay path of a failure, to run only its shrunk counterexample. */
  readonly path?: string | undefined;
  /**
   * The `replayPath` printed beside the shrunk commands: which commands of each sequence ran. A command list is
   * shrunk by what ran, so the seed and path alone do not find it again.
   */
  readonly replayPath?: string | undefined;
  /**
   * Wall-clock time (ms since the epoch) after which no further sequence starts: a long run planned against a
   * deadline ends with its summary instead of being killed. The summary's `sequences` counts only those that ran.
   */
  readonly deadline?: number | undefined;
  /** Called after every sequence that ran, with how many ran so far (progress of a long run). */
  readonly onSequence?: ((sequences: number) => void) | undefined;
}

/** What a model run did: sequences and commands run. */
export interface ModelRunSummary {
  readonly sequences: number;
  readonly commands: number;
  /** Commands run, by name (the part of `toString` before its arguments). */
  readonly byName: Readonly<Record<string, number>>;
  /** Payments accepted and webhooks awaited in the run. */
  readonly payments: number;
  readonly webhooks: number;
}

/** Runs the property on a started deployment; throws fast-check's report (seed, path, counterexample) on failure. */
export async function runModel(deployment: Deployment, options: ModelRunOptions): Promise<ModelRunSummary> {
  const commands = modelCommands(deployment.settleDelayMs, deployment.restart !== undefined);
  let sequences = 0;
  let ran = 0;
  const byName: Record<string, number> = {};
  const before = { ...outcomes };
  const property = fc.asyncProperty(
    fc.commands(commands, {
      maxCommands: options.maxCommands,
      size: 'max',
      ...(options.replayPath ? { replayPath: options.replayPath } : {}),
    }),
    async (cmds) => {
      // Past the deadline the remaining sequences are drawn but not run, and not counted.
      if (options.deadline !== undefined && Date.now() > options.deadline) return;
      const run = nextRun();
      sequences += 1;
      const reset = await deployment.send({ method: 'POST', path: '/__pck/reset' });
      if (reset.status !== 200) throw new Error(`reset answered ${reset.status}`);
      deployment.receiver.startRun(run);
      const model = new ReferenceModel(deployment.settleDelayMs);
      const real: RealSide = { deployment, run };
      // Every sequence opens with a token per client (printed as part of no counterexample: it always runs).
      const checked = [...openingCommands(), ...cmds].map((command) => ({
        check: (m: Readonly<ReferenceModel>) => command.check(m),
        run: async (m: ReferenceModel, r: RealSide) => {
          ran += 1;
          const name = command.toString().replace(/\(.*$/, '');
          byName[name] = (byName[name] ?? 0) + 1;
          await command.run(m, r);
          checkReceiver(r);
        },
        toString: () => command.toString(),
      }));
      await fc.asyncModelRun(() => ({ model, real }), checked);
      options.onSequence?.(sequences);
    },
  );
  await fc.assert(property, {
    numRuns: options.numRuns,
    seed: options.seed,
    ...(options.path ? { path: options.path } : {}),
  });
  return {
    sequences,
    commands: ran,
    byName,
    payments: outcomes.accepted - before.accepted,
    webhooks: outcomes.webhooks - before.webhooks,
  };
}
