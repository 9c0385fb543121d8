// postject ships no type declarations; this is the one function the build calls (its dist/api.js), through
// scripts/quiet-inject.ts.
declare module 'postject' {
  /** Injects `data` as resource `name` into the executable `file`, flipping the sentinel fuse. */
  export function inject(
    file: string,
    name: string,
    data: Uint8Array,
    options?: { sentinelFuse?: string; machoSegmentName?: string; overwrite?: boolean },
  ): Promise<void>;
}
