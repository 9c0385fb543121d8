/**
 * A CLI whose reader goes away stops quietly, as Unix tools do. `payment-contract-kit mock --help | head -1` (or
 * `| true`) closes the pipe before the CLI has written everything: the next write fails with EPIPE, which Node
 * reports as an `'error'` event on `process.stdout`, and an unhandled one prints a stack trace of Node's own stream
 * internals. A Unix tool is stopped there by SIGPIPE, silently; Node ignores SIGPIPE, so this does the same by hand.
 *
 * @module
 */

/**
 * The exit status after a closed pipe: 128 + SIGPIPE (13), what a shell reports for a Unix tool that SIGPIPE
 * stopped, so `set -o pipefail` scripts see the same as with `yes | head -1`.
 */
export const closedPipeExitCode = 141;

/** What {@link stopQuietlyOnClosedPipe} listens to: `process.stdout`, `process.stderr` or a stand-in in tests. */
export interface OutputStream {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

// The launcher and the ES module CLI both call this, in one process when a command goes on to the ES module CLI;
// each bundle has its own copy of this module, so the mark is a registered symbol on the stream, not a module's set.
const watched = Symbol.for('payment-contract-kit.closed-pipe');

/**
 * On EPIPE of any of `streams`, exits with {@link closedPipeExitCode} and writes nothing (the reader is gone, and a
 * message on the other stream would only repeat what the shell knows). Any other stream error is thrown, as
 * without a listener. Calling it again for a stream already watched adds nothing.
 */
export function stopQuietlyOnClosedPipe(
  streams: readonly OutputStream[] = [process.stdout, process.stderr],
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  for (const stream of streams) {
    const marked = stream as OutputStream & { [watched]?: true };
    if (marked[watched]) continue;
    marked[watched] = true;
    stream.on('error', (error: Error) => {
      if ((error as NodeJS.ErrnoException).code === 'EPIPE') exit(closedPipeExitCode);
      else throw error;
    });
  }
}
