/**
 * The mock's seeded, deterministic random source. Everything the mock invents (payment uuids, mock scalar values)
 * comes from here, so the same requests after a reset give the same answers, byte for byte.
 *
 * SHA-512 of (seed, block counter) in counter mode, 64 bytes a block (four uuids per digest; a payment draws one),
 * with the platform's SHA-512 (node:crypto under Node). Not for secrets; for repeatability.
 *
 * @module
 */

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

const BLOCK_BYTES = 64;
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

const VARIANT = '89ab89ab89ab89ab';

/**
 * Formats 32 hex digits as a version 4 uuid: the version digit set to 4 and the variant bits to 10, the other 122
 * bits kept, groups joined with `dash` ('-' for the usual form, '' for 32 plain digits).
 *
 * @example
 * uuidV4FromHex('00112233445566778899aabbccddeeff', '-') // '00112233-4455-4677-9899-aabbccddeeff'
 */
export function uuidV4FromHex(hex: string, dash: string): string {
  const variant = VARIANT[Number.parseInt(hex[16]!, 16)]!;
  return `${hex.slice(0, 8)}${dash}${hex.slice(8, 12)}${dash}4${hex.slice(13, 16)}${dash}${variant}${hex.slice(17, 20)}${dash}${hex.slice(20, 32)}`;
}

/**
 * Creates a seeded generator.
 *
 * @example
 * const random = createSeededRandom('test-seed', platform.crypto.sha512Hex);
 * random.uuid(); // same value on every run with this seed
 */
export function createSeededRandom(seed: string, sha512Hex: (text: string) => string): SeededRandom {
  let counter = 0;
  // The current block as hex (two digits a byte): the digest's hex form costs less to get than a Buffer, and a uuid
  // is a slice of it.
  let block = '';
  let offset = BLOCK_BYTES;

  function refill(): void {
    block = sha512Hex(`${seed}\0${counter++}`);
    offset = 0;
  }

  function byte(): number {
    if (offset >= BLOCK_BYTES) refill();
    const at = 2 * offset++;
    return Number.parseInt(block.slice(at, at + 2), 16);
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

  // 16 bytes as a version 4 uuid. Within the current block, a slice of its hex (payment uuids are drawn on every
  // payment); across a block boundary, byte by byte. Same value either way. A used-up block is refilled first, so
  // a run of uuids (four a block) always takes the slice.
  function uuidOf(dash: string): string {
    if (offset >= BLOCK_BYTES) refill();
    if (offset + 16 <= BLOCK_BYTES) {
      const hex = block.slice(2 * offset, 2 * offset + 32);
      offset += 16;
      return uuidV4FromHex(hex, dash);
    }
    let out = '';
    for (let i = 0; i < 16; i++) out += HEX[byte()];
    return uuidV4FromHex(out, dash);
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
      return createSeededRandom(`${seed}\0${label}`, sha512Hex);
    },
  };
}

/**
 * A {@link SeededRandom} whose source can be swapped: with a store, payment ids fork by boot number once the store
 * is open (the composition root swaps the source when the store tells it the boot).
 */
export interface SwitchableRandom extends SeededRandom {
  use(source: SeededRandom): void;
}

/** Wraps `initial`; every draw goes to the current source. */
export function switchableRandom(initial: SeededRandom): SwitchableRandom {
  let current = initial;
  return {
    get seed() {
      return current.seed;
    },
    next: () => current.next(),
    nextInt: (max) => current.nextInt(max),
    uuid: () => current.uuid(),
    uuidHex: () => current.uuidHex(),
    reset: () => current.reset(),
    fork: (label) => current.fork(label),
    use(source) {
      current = source;
    },
  };
}
