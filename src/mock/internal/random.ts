/**
 * The mock's seeded, deterministic random source. Everything the mock invents (payment uuids, mock scalar values)
 * comes from here, so the same requests after a reset give the same answers, byte for byte.
 *
 * Built on node:crypto only: SHA-256 of (seed, block counter) in counter mode. Not for secrets; for repeatability.
 *
 * @module
 */
import { sha256 } from './domain/sha256.ts';

/** A deterministic random source; {@link SeededRandom.reset} rewinds it to its first value. */
export interface SeededRandom {
  /** The seed this generator was created with. */
  readonly seed: string;
  /** Next float in [0, 1), with 53 bits of randomness. */
  next(): number;
  /** Next integer in [0, max). */
  nextInt(max: number): number;
  /** Next RFC 9562 version 4 formatted uuid (lower case). */
  uuid(): string;
  /** The next {@link SeededRandom.uuid} without its dashes (32 hex digits); draws the same bytes. */
  uuidHex(): string;
  /** Rewinds the generator to its first value. */
  reset(): void;
  /** An independent generator whose sequence depends on this seed and `label`, so consumers do not disturb each other. */
  fork(label: string): SeededRandom;
}

const BLOCK_BYTES = 32;
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * Creates a seeded generator.
 *
 * @example
 * const random = createSeededRandom('test-seed');
 * random.uuid(); // same value on every run with this seed
 */
export function createSeededRandom(seed: string): SeededRandom {
  let counter = 0;
  let block: Buffer = Buffer.alloc(0);
  let offset = BLOCK_BYTES;

  function refill(): void {
    block = sha256(`${seed}\0${counter++}`);
    offset = 0;
  }

  function byte(): number {
    if (offset >= BLOCK_BYTES) refill();
    return block[offset++]!;
  }

  function next(): number {
    // 53 bits from 7 bytes: the top 21 bits, then 32 more, as Math.random's precision.
    let hi = 0;
    for (let i = 0; i < 3; i++) hi = hi * 256 + byte();
    hi >>>= 3;
    let lo = 0;
    for (let i = 0; i < 4; i++) lo = lo * 256 + byte();
    return (hi * 2 ** 32 + lo) / 2 ** 53;
  }

  // Reads 16 bytes straight into hex, with the version 4 and variant bits set; no intermediate array (payment uuids
  // and refresh tokens are drawn on every request).
  function uuidOf(dash: string): string {
    let out = '';
    for (let i = 0; i < 16; i++) {
      let b = byte();
      if (i === 6) b = (b & 0x0f) | 0x40;
      else if (i === 8) b = (b & 0x3f) | 0x80;
      if (dash !== '' && (i === 4 || i === 6 || i === 8 || i === 10)) out += dash;
      out += HEX[b];
    }
    return out;
  }

  return {
    seed,
    next,
    nextInt(max) {
      return Math.floor(next() * max);
    },
    uuid() {
      return uuidOf('-');
    },
    uuidHex() {
      return uuidOf('');
    },
    reset() {
      counter = 0;
      offset = BLOCK_BYTES;
    },
    fork(label) {
      return createSeededRandom(`${seed}\0${label}`);
    },
  };
}
