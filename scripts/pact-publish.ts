// `npm run pact:publish`: publishes the pact files in contracts/ to a Pact Broker with the pact-broker CLI
// (@pact-foundation/pact-cli, installed from the npm registry; no separate download).
//
// Configuration, by the Pact Broker's standard environment variables:
//   PACT_BROKER_BASE_URL                         required
//   PACT_BROKER_TOKEN                            or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD
//   PACT_CONSUMER_APP_VERSION                    optional; defaults to <package version>+<git commit>
//   PACT_CONSUMER_BRANCH                         optional; defaults to the current git branch
// Credentials reach the CLI through its environment, never its arguments. Extra arguments are passed on
// (`npm run pact:publish -- --tag release`); `--dry-run` prints the command instead of running it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const contractsDir = join(root, 'contracts');

function fail(message: string): never {
  console.error(`[payment-contract-kit] ${message}`);
  process.exit(1);
}

function git(args: string[]): string | undefined {
  try {
    return (
      execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() ||
      undefined
    );
  } catch {
    return undefined;
  }
}

const env = process.env;
const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const passOn = args.filter((a) => a !== '--dry-run');

const baseUrl = env.PACT_BROKER_BASE_URL;
if (!baseUrl)
  fail(
    'PACT_BROKER_BASE_URL is not set. Set it to your Pact Broker, e.g. PACT_BROKER_BASE_URL=https://broker.example.com, ' +
      'with PACT_BROKER_TOKEN (or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD).',
  );
const hasBasicAuth = Boolean(env.PACT_BROKER_USERNAME && env.PACT_BROKER_PASSWORD);
if (!env.PACT_BROKER_TOKEN && !hasBasicAuth)
  fail(
    env.PACT_BROKER_USERNAME || env.PACT_BROKER_PASSWORD
      ? 'Basic auth needs both PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD; one of them is missing.'
      : 'No Pact Broker credentials: set PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD.',
  );

const pacts = existsSync(contractsDir) ? readdirSync(contractsDir).filter((f) => f.endsWith('.json')) : [];
if (pacts.length === 0) fail('contracts/ holds no pact files; run `npm run pact:update` first.');

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const commit = git(['rev-parse', '--short=12', 'HEAD']);
const version = env.PACT_CONSUMER_APP_VERSION ?? (commit ? `${pkg.version}+${commit}` : undefined);
if (!version) fail('Cannot tell the consumer version: set PACT_CONSUMER_APP_VERSION (no git commit found).');
const branch = env.PACT_CONSUMER_BRANCH ?? git(['branch', '--show-current']);

let cli: string;
try {
  const cliPackage = createRequire(join(root, 'package.json')).resolve('@pact-foundation/pact-cli/package.json');
  cli = join(dirname(cliPackage), 'bin', 'pact-broker.js');
} catch {
  fail('The pact-broker CLI is not installed; run `npm install -D @pact-foundation/pact-cli`.');
}

const cliArgs = [
  'publish',
  contractsDir,
  '--broker-base-url',
  baseUrl,
  '--consumer-app-version',
  version,
  ...(branch ? ['--branch', branch] : []),
  ...passOn,
];
console.log(`[payment-contract-kit] publishing ${pacts.length} pact files from contracts/ as version ${version}:`);
for (const p of pacts.sort()) console.log(`  ${p}`);
if (dryRun) {
  console.log(`[payment-contract-kit] dry run: pact-broker ${cliArgs.join(' ')}`);
  process.exit(0);
}
const result = spawnSync(process.execPath, [cli, ...cliArgs], { stdio: 'inherit', env });
if (result.error) fail(`could not run the pact-broker CLI: ${result.error.message}`);
process.exit(result.status ?? 1);
