// The release script's pure parts (scripts/release.ts), in process: the executable's name per platform and the
// checksum file in sha256sum's format. The whole release (npm pack, the executable, the checksums on disk) is
// written in test/binary/single-executable.test.ts, from the executable that test builds anyway.
import { describe, expect, it } from 'vitest';
import { binaryFileName, checksumFile, checksumFileName, isReleaseFile } from '../scripts/release.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the release folder', () => {
  it.each([
    ['linux', 'x64', 'payment-contract-kit-linux-x64'],
    ['linux', 'arm64', 'payment-contract-kit-linux-arm64'],
    ['darwin', 'arm64', 'payment-contract-kit-darwin-arm64'],
    ['win32', 'x64', 'payment-contract-kit-win32-x64.exe'],
  ] as const)('names the executable for %s %s %s', (platform, arch, name) => {
    expect(binaryFileName(platform, arch)).toBe(name);
  });

  it('writes one sha256sum line per artifact, sorted by name, as `sha256sum -c` reads them', () => {
    const text = checksumFile([
      { name: 'payment-contract-kit-linux-x64', bytes: bytes('') },
      { name: 'payment-contract-kit-0.1.0.tgz', bytes: bytes('abc') },
    ]);
    // The SHA-256 test vectors of "abc" and of nothing (FIPS 180-2).
    expect(text).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  payment-contract-kit-0.1.0.tgz\n' +
        'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  payment-contract-kit-linux-x64\n',
    );
    expect(checksumFileName).toBe('SHA256SUMS');
  });

  it("replaces an earlier release's files and nothing else in the folder", () => {
    for (const name of ['payment-contract-kit-0.1.0.tgz', 'payment-contract-kit-linux-x64', 'SHA256SUMS'])
      expect(isReleaseFile(name)).toBe(true);
    expect(isReleaseFile(binaryFileName('win32', 'arm64'))).toBe(true);
    for (const name of ['package.json', 'src', 'payment-contract-kit', 'notes.md', 'payment-contract-kit-notes.md'])
      expect(isReleaseFile(name)).toBe(false);
  });
});
