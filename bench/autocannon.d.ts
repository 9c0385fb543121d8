// The part of autocannon's programmatic API the benchmark uses (the package ships no types; @types/autocannon is
// not installed, and this surface is small enough to state here).
declare module 'autocannon' {
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest | undefined;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void;
  }

  export interface AutocannonOptions {
    /** One URL, or several: connection i goes to url[i % n]. */
    url: string | string[];
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    /** Milliseconds between samples; a timed run ends at the first sample after its duration. Default 1000. */
    sampleInt?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: AutocannonRequest[];
    initialContext?: Record<string, unknown>;
    excludeErrorStats?: boolean;
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    total: number;
  }

  export interface AutocannonResult {
    duration: number;
    start: Date;
    finish: Date;
    connections: number;
    requests: Histogram & { sent: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    '2xx': number;
  }

  export interface Instance extends PromiseLike<AutocannonResult> {
    stop(): void;
  }

  function autocannon(options: AutocannonOptions): Instance;
  export default autocannon;
}
