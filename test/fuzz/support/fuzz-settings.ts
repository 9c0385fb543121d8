/**
 * Run size and seed of the fuzz tests. `npm test` uses the defaults (a fixed seed); `npm run fuzz` sets
 * `PCK_FUZZ_RUNS=200000` and `PCK_FUZZ_SEED=random`, and the seed drawn is printed so a failure can be replayed with
 * `PCK_FUZZ_SEED=<seed> PCK_FUZZ_RUNS=<runs> npx vitest run test/fuzz`. `PCK_FUZZ_PROFILE=1` makes the mock fuzz print
 * the time spent per kind of request.
 *
 * @module
 */

/** Default number of cases per fuzz test under `npm test`. */
export const DEFAULT_FUZZ_RUNS = 10_000;
/** Fixed seed of `npm test`. */
export const DEFAULT_FUZZ_SEED = 20_261_123;

/** The number of cases and the seed of this run. */
export interface FuzzSettings {
  readonly runs: number;
  readonly seed: number;
  /** Whether the seed was drawn at random (printed by the tests). */
  readonly randomSeed: boolean;
}

/**
 * Reads `PCK_FUZZ_RUNS` and `PCK_FUZZ_SEED`; refuses values that are not whole numbers. `defaultRuns` is the
 * entry's own run count under `npm test` (the hostile-input entries run a few hundred cases each there, so that all
 * of them together stay well inside the unit tier's budget).
 */
export function fuzzSettings(env: NodeJS.ProcessEnv = process.env, defaultRuns = DEFAULT_FUZZ_RUNS): FuzzSettings {
  const runsText = env.PCK_FUZZ_RUNS;
  const runs = runsText === undefined || runsText === '' ? defaultRuns : Number(runsText);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`[payment-contract-kit] PCK_FUZZ_RUNS must be a whole number of cases, got "${runsText}".`);
  const seedText = env.PCK_FUZZ_SEED;
  if (seedText === 'random') {
    const seed = Math.floor(Math.random() * 0x7fffffff);
    // Printed before any case runs, so even a run that dies half way can be replayed.
    console.info(
      `fuzz: random seed ${seed}; replay with PCK_FUZZ_SEED=${seed} PCK_FUZZ_RUNS=${runs} npx vitest run <this test file>`,
    );
    return { runs, seed, randomSeed: true };
  }
  const seed = seedText === undefined || seedText === '' ? DEFAULT_FUZZ_SEED : Number(seedText);
  if (!Number.isInteger(seed))
    throw new Error(`[payment-contract-kit] PCK_FUZZ_SEED must be a whole number or "random", got "${seedText}".`);
  return { runs, seed, randomSeed: false };
}

/**
 * A test timeout for `runs` cases at up to `msPerCase` each on a loaded machine, never below the suite's 30 s: the
 * long `npm run fuzz` needs more than the default, `npm test`'s run fits in it.
 */
export function fuzzTimeout(runs: number, msPerCase: number): number {
  return Math.max(30_000, Math.ceil(runs * msPerCase));
}
