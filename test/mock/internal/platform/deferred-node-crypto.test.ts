// The CLI mock's crypto (decision 0037): @noble/hashes for the first answers, node:crypto once loaded. A token
// signed on one path must check on the other, and a matcher or signer built at start-up must move to node:crypto.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import {
  deferredNodeCrypto as deferred,
  loadNodeCrypto,
  nodeCrypto,
  nodeCryptoLoaded,
} from '../../../support/mock-internals/platform.ts';

const key = randomBytes(32);
const inputs = ['', 'a.b', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0', 'x-_'.repeat(500)];
const texts = ['', 'test-api-key', 'naïve €', 'a'.repeat(3000)];

// One file, one module instance: the tests run in order, before and after the load.
const signer = deferred.hs256Signer(key);
const matches = deferred.secretMatcher('test-api-key');

it('answers on @noble/hashes before node:crypto is loaded, with the same bytes as node:crypto', () => {
  expect(nodeCryptoLoaded()).toBe(false);
  const node = nodeCrypto.hs256Signer(key);
  for (const input of inputs) expect(signer(input)).toBe(node(input));
  for (const text of texts) {
    expect(deferred.sha256Hex(text)).toBe(nodeCrypto.sha256Hex(text));
    expect(deferred.sha512Hex(text)).toBe(nodeCrypto.sha512Hex(text));
    expect(deferred.hmacSha256Base64(key, text)).toBe(nodeCrypto.hmacSha256Base64(key, text));
    const segment = deferred.base64urlOfText(text);
    expect(segment).toBe(nodeCrypto.base64urlOfText(text));
    expect(deferred.textOfBase64url(segment)).toBe(text);
  }
  expect(matches('test-api-key')).toBe(true);
  expect(matches('test-api-kez')).toBe(false);
  expect(matches('')).toBe(false);
  expect(nodeCryptoLoaded()).toBe(false);
});

it('moves every primitive, and the signer and matcher made before, to node:crypto once loaded', async () => {
  const before = inputs.map((input) => signer(input));
  await loadNodeCrypto();
  expect(nodeCryptoLoaded()).toBe(true);
  expect(inputs.map((input) => signer(input))).toEqual(before);
  expect(deferred.hs256Signer(key)(inputs[2]!)).toBe(before[2]);
  expect(matches('test-api-key')).toBe(true);
  expect(matches('wrong')).toBe(false);
  for (const text of texts) expect(deferred.sha256Hex(text)).toBe(nodeCrypto.sha256Hex(text));
});

it('keeps its own copy of the key: a caller changing its array after does not change the signatures', () => {
  const mine = Uint8Array.from(key);
  const sign = deferred.hs256Signer(mine);
  const first = sign('a.b');
  mine.fill(0);
  expect(sign('a.b')).toBe(first);
  expect(() => deferred.hs256Signer(randomBytes(65))).toThrow(RangeError);
});
