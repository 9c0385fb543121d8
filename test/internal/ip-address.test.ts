// ipVersion gives node:net's isIP answer without node:net (the mock's validation and host checks run in browsers).
import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipVersion } from '../../src/internal/ip-address.ts';

// A fixed seed: the same cases on every run (CI must not meet a new one by chance).
fc.configureGlobal({ seed: 28 });

describe('ipVersion', () => {
  it.each([
    ['IPv4', '203.0.113.7', 4],
    ['IPv4 edges', '255.255.255.255', 4],
    ['IPv4 leading zero', '01.2.3.4', 0],
    ['IPv4 out of range', '256.1.1.1', 0],
    ['three parts', '1.2.3', 0],
    ['IPv6', '2001:db8::1', 6],
    ['IPv6 loopback', '::1', 6],
    ['IPv6 unspecified', '::', 6],
    ['IPv6 with IPv4 tail', '::ffff:192.0.2.1', 6],
    ['IPv6 with a bad IPv4 tail', '::ffff:192.0.2', 0],
    ['IPv6 with a zone', 'fe80::1%eth0', 6],
    ['IPv6 with an empty zone', 'fe80::1%', 0],
    ['IPv6 in brackets', '[::1]', 0],
    ['too many groups', '1:2:3:4:5:6:7:8:9', 0],
    ['two double colons', '1::2::3', 0],
    ['host name', 'example.com', 0],
    ['empty', '', 0],
  ] as const)('%s: %s', (_name, text, version) => {
    expect(ipVersion(text)).toBe(version);
    expect(isIP(text)).toBe(version);
  });

  it('agrees with node:net on generated addresses and near misses', () => {
    const near = fc.oneof(
      fc.ipV4(),
      fc.ipV6(),
      fc.ipV4Extended(),
      fc.stringMatching(/^[\d.:a-fA-F%]{0,20}$/),
      fc.tuple(fc.ipV6(), fc.stringMatching(/^[\w.:%-]{0,6}$/)).map(([ip, zone]) => `${ip}%${zone}`),
    );
    fc.assert(
      fc.property(near, (text) => ipVersion(text) === isIP(text)),
      { numRuns: 3000 },
    );
  });
});
