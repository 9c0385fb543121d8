// postject ships no type declarations; this is the one function scripts/build-binary.ts calls (its dist/api.js).
declare module 'postject' {
  /** Injects `data` as resource `name` into the executable `file`, flipping the sentinel fuse. */
  export function inject(
    file: string,
    name: string,
    data: Uint8Array,
    options?: { sentinelFuse?: string; machoSegmentName?: string; overwrite?: boolean },
  ): Promise<void>;
}
