/**
 * The CLI mock's {@link CryptoPrimitives} (issue 22, cold start; decision 0037): @noble/hashes (web-crypto.ts) for the
 * first answers, node:crypto (node-crypto.ts) once it is loaded. Loading node:crypto cost 12-30 ms of the CLI mock's
 * way to its first answer, which needs only one HMAC and a few SHA-256 digests; it is loaded a moment after first
 * use instead ({@link NODE_CRYPTO_DELAY_MS}, an unref'd timer), and every primitive switches to it then. Both give the
 * same bytes (tested), so a token signed before the switch checks after it and the other way round.
 *
 * Only the CLI's mock script uses this (an esbuild plugin in tsup.config.ts puts it in place of node-crypto.ts);
 * the library keeps node:crypto from the start. In the script the dynamic import is a lazy module wrapper, so
 * node:crypto is required when the timer fires, not when the script loads.
 *
 * @module
 */
import type { CryptoPrimitives } from './platform.ts';
import { webCrypto } from './web-crypto.ts';

/** How long after the first use node:crypto is loaded: past the first answers of a cold start. */
export const NODE_CRYPTO_DELAY_MS = 1000;

let loaded: CryptoPrimitives | undefined;
let loading: Promise<CryptoPrimitives> | undefined;

/** Loads node:crypto now (once); resolves when every primitive runs on it. */
export function loadNodeCrypto(): Promise<CryptoPrimitives> {
  loading ??= import('./node-crypto.ts').then((m) => {
    loaded = m.nodeCrypto;
    return m.nodeCrypto;
  });
  return loading;
}

/** Whether the primitives run on node:crypto yet (tests). */
export const nodeCryptoLoaded = (): boolean => loaded !== undefined;

let scheduled = false;

/** The primitives in use: node:crypto once loaded; before, @noble/hashes, and the load is scheduled. */
function current(): CryptoPrimitives {
  if (loaded) return loaded;
  if (!scheduled) {
    scheduled = true;
    // A failed load (it should not fail) leaves the @noble/hashes path in place, which gives the same bytes.
    setTimeout(() => void loadNodeCrypto().catch(() => undefined), NODE_CRYPTO_DELAY_MS).unref();
  }
  return webCrypto;
}

/**
 * A function made from `make(primitives)` on the primitives in use, made again on node:crypto once it is loaded:
 * a signer or matcher built at start-up moves to the faster path too.
 */
function switching<F>(make: (primitives: CryptoPrimitives) => F): () => F {
  let made = make(current());
  let onNode = loaded !== undefined;
  return () => {
    if (!onNode && loaded) {
      made = make(loaded);
      onNode = true;
    }
    return made;
  };
}

/** @noble/hashes until node:crypto is loaded, then node:crypto; same bytes either way. */
export const deferredNodeCrypto: CryptoPrimitives = {
  sha256Hex: (text) => current().sha256Hex(text),
  sha512Hex: (text) => current().sha512Hex(text),
  hs256Signer(key) {
    const own = Uint8Array.from(key);
    const signer = switching((p) => p.hs256Signer(own));
    return (input) => signer()(input);
  },
  secretMatcher(secret) {
    const matcher = switching((p) => p.secretMatcher(secret));
    return (candidate) => matcher()(candidate);
  },
  hmacSha256Base64: (key, text) => current().hmacSha256Base64(key, text),
  base64urlOfText: (text) => current().base64urlOfText(text),
  textOfBase64url: (segment) => current().textOfBase64url(segment),
};

/** The name node-platform.ts imports from node-crypto.ts, which this module stands in for in the mock script. */
export const nodeCrypto: CryptoPrimitives = deferredNodeCrypto;
