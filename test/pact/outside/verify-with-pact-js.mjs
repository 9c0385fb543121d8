// A plain script, as a team outside this repository would write it: pact-js's Verifier pointed at a running
// payment-contract-kit mock with nothing but its URLs (the state change URL, and the message endpoint as the
// message transport). No kit code, no test helpers.
//
//   node verify-with-pact-js.mjs <mock URL> <report.json> <pact file>...
//
// Writes the native verifier's JSON report to <report.json>; exits 0 when every interaction passed.
import { writeFileSync } from 'node:fs';
import { Verifier } from '@pact-foundation/pact';

const [mockUrl, reportFile, ...pactUrls] = process.argv.slice(2);
const { port } = new URL(mockUrl);

let report;
let code = 0;
try {
  report = await new Verifier({
    provider: 'card-payment-service',
    providerBaseUrl: mockUrl,
    pactUrls,
    providerStatesSetupUrl: `${mockUrl}/__pck/provider-states`,
    transports: [{ protocol: 'message', port: Number(port), path: '/__pck/messages' }],
    logLevel: 'error',
  }).verifyProvider();
} catch (error) {
  report = error instanceof Error ? error.message : String(error);
  code = 1;
}
writeFileSync(reportFile, String(report));
process.exit(code);
