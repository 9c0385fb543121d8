/**
 * The sandbox clock and epoch a shared store holds for every replica (decision 0040, step 2): how far the clock was
 * moved since the last reset, and which reset the sandbox is in (its epoch), read in one round trip with a request's
 * check. Memory and the file store have no such port: the clock is the process's own (clock.ts), and the file store
 * journals its moves (`clk`) and resets (`rst`).
 *
 * @module
 */

/** What a replica reads of the sandbox on every request: the epoch and the clock's offset in it. */
export interface SandboxReading {
  /** The current epoch: a control reset moves it on, emptying every part at once. */
  readonly epoch: number;
  /** How far the sandbox clock was moved forward in this epoch (ms). */
  readonly clockMs: number;
}

/** The shared clock; every method may reject with `StoreUnavailableError`. */
export interface ClockStatePort {
  /** The epoch and the clock now. */
  read(): Promise<SandboxReading>;
  /** Moves the clock of the current epoch forward by `ms`; returns the epoch and the clock after it. */
  advance(ms: number): Promise<SandboxReading>;
}
