/**
 * A stand-in for the real service that deviates on purpose: it passes each request to a real mock and alters the
 * answers one deviation picks, so everything else stays a clean exchange of the contract. It remembers which of its
 * exchanges it altered (in arrival order, the proxy's `seq` order for sequential flows).
 *
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';
import { rawRequest, type StandIn, startStandIn } from './support.ts';

/** An answer as the deviation sees and changes it. */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The request a deviation looks at. */
export interface SeenRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One planted deviation of the service. */
export interface Deviation {
  /** Which exchanges to alter. */
  readonly when: (req: SeenRequest) => boolean;
  /** The altered answer. */
  readonly alter: (answer: PlainAnswer, req: SeenRequest) => PlainAnswer;
}

/** A running deviating stand-in. */
export interface DeviatingService extends StandIn {
  /** 1-based numbers of the exchanges it altered. */
  readonly altered: number[];
}

/** Starts a stand-in in front of `mockUrl` that applies `deviation`. */
export async function startDeviatingService(mockUrl: string, deviation: Deviation): Promise<DeviatingService> {
  const altered: number[] = [];
  let count = 0;
  const standIn = await startStandIn((req, body, res) => {
    const n = ++count;
    const seen: SeenRequest = { path: req.url ?? '/', headers: req.headers, body };
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
    ) as Record<string, string>;
    void rawRequest(mockUrl, { method: req.method ?? 'POST', path: seen.path, headers, body }).then((raw) => {
      const plainHeaders: Record<string, string> = {};
      for (let i = 0; i < raw.rawHeaders.length; i += 2) {
        const name = raw.rawHeaders[i]!.toLowerCase();
        if (!['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date'].includes(name))
          plainHeaders[name] = raw.rawHeaders[i + 1]!;
      }
      let answer: PlainAnswer = { status: raw.status, headers: plainHeaders, body: raw.body.toString('utf8') };
      if (deviation.when(seen)) {
        // A deviation that does not apply to this answer (an error answer without data, say) leaves it clean.
        try {
          answer = deviation.alter(answer, seen);
          altered.push(n);
        } catch {}
      }
      res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
      res.end(answer.body);
    });
  });
  return Object.assign(standIn, { altered });
}

/** Changes a JSON answer body. */
// biome-ignore lint/suspicious/noExplicitAny: each deviation edits whatever JSON the mock answered.
export function editJson(answer: PlainAnswer, edit: (value: any) => unknown): PlainAnswer {
  const value = JSON.parse(answer.body);
  const out = edit(value);
  return { ...answer, body: JSON.stringify(out === undefined ? value : out) };
}
