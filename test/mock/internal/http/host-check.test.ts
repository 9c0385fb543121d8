import { describe, expect, it } from 'vitest';
import { createHostCheck, hostName } from '../../../support/mock-internals/http.ts';

describe('hostName', () => {
  it.each([
    ['127.0.0.1:4010', '127.0.0.1'],
    ['LOCALHOST:4010', 'localhost'],
    ['[::1]:4010', '::1'],
    ['[::1]', '::1'],
    ['mock.internal.', 'mock.internal'],
    ['example.test', 'example.test'],
  ])('%s -> %s', (header, name) => {
    expect(hostName(header)).toBe(name);
  });

  it.each(['', 'a b', 'evil.example:port', '[::1', '[::1]x', 'http://x', 'user@host'])('refuses %j', (header) => {
    expect(hostName(header)).toBeUndefined();
  });
});

describe('createHostCheck', () => {
  const check = createHostCheck({ host: '127.0.0.1', allowedHosts: ['mock', '.docker.internal'] });

  it.each([
    '127.0.0.1:4010',
    '127.0.0.1:8080', // port forwarding changes the port; only the name matters to rebinding
    'localhost:4010',
    'app.localhost:4010',
    '[::1]:4010',
    '10.0.0.7:4010',
    'mock:4010',
    'docker.internal',
    'host.docker.internal:4010',
  ])('accepts %s', (host) => {
    expect(check(host)).toBe(true);
  });

  it.each(['evil.example', 'evil.example:4010', 'mock.evil.example', 'localhost.evil.example', 'notdocker.internal'])(
    'refuses %s',
    (host) => {
      expect(check(host)).toBe(false);
    },
  );

  it('accepts a request without Host (in-process app.fetch, Mock Service Worker)', () => {
    expect(check(undefined)).toBe(true);
  });

  it('accepts the --host name the mock listens on', () => {
    expect(createHostCheck({ host: 'devbox.lan', allowedHosts: [] })('devbox.lan:4010')).toBe(true);
  });

  it('accepts any host with allowedHosts: true', () => {
    expect(createHostCheck({ host: '127.0.0.1', allowedHosts: true })('evil.example')).toBe(true);
  });
});
