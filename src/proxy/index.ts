/**
 * `payment-contract-kit/proxy`: the validating proxy. Put it in front of the real service (its sandbox or staging),
 * send the consumer's traffic through it, and read what the service did differently from the contract and from each
 * assumption of the ledger, with a mock `--config` that makes the mock answer the same way.
 *
 * @example
 * import { startProxy } from 'payment-contract-kit/proxy';
 * const proxy = await startProxy({ upstream: 'https://sandbox.example.com' });
 * // ... run the consumer's tests against proxy.url ...
 * console.log(proxy.report().drifts);
 * await proxy.close();
 *
 * @module
 */
export type { DriftExchange, DriftReport, ReportDrift } from './drift-report.ts';
export type { Har, HarEntry } from './har.ts';
export { defaultProxyOptions, type ProxyLogFormat, type ProxyLogSink, type ProxyOptions } from './options.ts';
export { driftReportPath, type ProxyServer, type StartProxyOptions, startProxy } from './server.ts';
export type { CardTypePatternJson, SuggestedAssumptions, SuggestedConfig } from './suggested-config.ts';
