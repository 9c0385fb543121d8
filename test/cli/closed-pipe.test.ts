// A reader that goes away (`payment-contract-kit mock --help | head -1`) stops the CLI quietly, as SIGPIPE stops a
// Unix tool, instead of an unhandled EPIPE stack trace. In process, with stand-in streams; the built CLI piped into
// a closed reader is in test/package/cli-closed-pipe.test.ts.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { closedPipeExitCode, stopQuietlyOnClosedPipe } from '../../src/cli/closed-pipe.ts';

const epipe = () => Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });

describe('stopQuietlyOnClosedPipe', () => {
  it('exits with 141 (128 + SIGPIPE) when stdout or stderr meets a closed pipe', () => {
    const [stdout, stderr] = [new EventEmitter(), new EventEmitter()];
    const exits: number[] = [];
    stopQuietlyOnClosedPipe([stdout, stderr], (code) => exits.push(code));
    // Without a listener, emit('error') throws the error: that throw is the stack trace users saw.
    expect(() => stdout.emit('error', epipe())).not.toThrow();
    expect(() => stderr.emit('error', epipe())).not.toThrow();
    expect(exits).toEqual([closedPipeExitCode, closedPipeExitCode]);
    expect(closedPipeExitCode).toBe(141);
  });

  it('lets any other stream error through', () => {
    const stdout = new EventEmitter();
    const exits: number[] = [];
    stopQuietlyOnClosedPipe([stdout], (code) => exits.push(code));
    const other = Object.assign(new Error('write EIO'), { code: 'EIO' });
    expect(() => stdout.emit('error', other)).toThrow(other);
    expect(exits).toEqual([]);
  });

  it('listens once per stream, however often it is called', () => {
    const stdout = new EventEmitter();
    stopQuietlyOnClosedPipe([stdout], () => {});
    stopQuietlyOnClosedPipe([stdout], () => {});
    expect(stdout.listenerCount('error')).toBe(1);
  });
});
