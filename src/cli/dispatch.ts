/**
 * The `payment-contract-kit` command's dispatch: one module per subcommand, loaded only when that subcommand runs,
 * so `payment-contract-kit mock` starts without loading anything the mock does not need. Apart from main.ts, which
 * runs it on the process's arguments as soon as it is loaded, so a test can call {@link main} in process.
 *
 * @module
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kitMessage } from '../internal/messages.ts';
import { readPackagedFile } from '../internal/package-files.ts';
import type { CommandIo } from './command-line.ts';

/** What every command module exports. */
export interface CliCommand {
  /** Runs the command with the arguments after its name; resolves with an exit code, or never for servers. */
  run(argv: readonly string[]): Promise<number | undefined>;
}

/** The CLI's folder (dist/cli), or undefined where import.meta has no file URL (the single executable's bundle). */
function cliDir(): string | undefined {
  const url = (import.meta as { url?: string }).url;
  return url?.startsWith('file:') ? dirname(fileURLToPath(url)) : undefined;
}

interface CommandEntry {
  /** One line for the command list. */
  readonly summary: string;
  readonly load: () => Promise<CliCommand>;
}

/**
 * Subcommands by name; two-word names (`webhook send`) are matched before one-word ones.
 * To add a command: write src/cli/commands/<name>.ts exporting `run(argv)`, and add one line here.
 */
const commands: Readonly<Record<string, CommandEntry>> = {
  // Through a V8 code cache when built (code-cache.ts): the mock's start-up is what users wait on most.
  mock: {
    summary: 'Start the stateful mock of the payment service.',
    load: async () => (await import('./code-cache.ts')).loadMockCommand(cliDir()) ?? import('./commands/mock.ts'),
  },
  'webhook send': {
    summary: 'Send a payment status webhook to a URL.',
    load: () => import('./commands/webhook-send.ts'),
  },
  'webhook listen': {
    summary: 'Receive webhooks on a local port, check them, print and forward them.',
    load: () => import('./commands/webhook-listen.ts'),
  },
  verify: { summary: 'Check pact files against the schemas and the mock.', load: () => import('./commands/verify.ts') },
  proxy: {
    summary: "Validate the real service's traffic in a reverse proxy.",
    load: () => import('./commands/proxy.ts'),
  },
  check: {
    summary: 'Check HAR files of real traffic against the contract.',
    load: () => import('./commands/check.ts'),
  },
  coverage: {
    summary: "Report and gate on which of the service's behaviours a suite exercised.",
    load: () => import('./commands/coverage.ts'),
  },
  'coverage merge': {
    summary: 'Merge coverage reports of several processes into one.',
    load: () => import('./commands/coverage-merge.ts'),
  },
};

const usage = `Usage: payment-contract-kit <command> [options]

Commands:
${Object.entries(commands)
  // Two spaces at least after the longest name: readers (and the single executable's test) split the columns there.
  .map(([name, c]) => `  ${name.padEnd(Math.max(...Object.keys(commands).map((n) => n.length)) + 2)}${c.summary}`)
  .join('\n')}

Run "payment-contract-kit <command> --help" for the options of a command.
"payment-contract-kit --version" prints the kit's version.
`;

/** The kit's version, from its package.json (beside the package, or inside the single executable). */
function version(): string {
  const manifest = readPackagedFile('package.json');
  return manifest === undefined ? 'unknown' : JSON.parse(manifest.toString('utf8')).version;
}

/**
 * Runs the CLI with `argv` (without node and the script path); resolves with the exit code. `io` takes the command
 * list, the version and the message for an unknown command; a command itself writes to the process's standard
 * streams (tests that capture a command's output call its module's `run`).
 *
 * @example
 * await main(['--version']); // prints the kit's version
 */
export async function main(
  argv: readonly string[],
  io: CommandIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number | undefined> {
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(usage);
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v' || first === 'version') {
    io.stdout.write(`${version()}\n`);
    return 0;
  }
  const two = second === undefined ? undefined : `${first} ${second}`;
  const name = two !== undefined && commands[two] ? two : first;
  const entry = commands[name];
  if (!entry) {
    const known = Object.keys(commands).join(', ');
    io.stderr.write(
      kitMessage(
        `Unknown ${first.startsWith('-') ? 'option' : 'command'} "${first}": the commands are ${known}; run "payment-contract-kit --help" for the list.\n`,
      ),
    );
    return 2;
  }
  const command = await entry.load();
  return command.run(argv.slice(name.split(' ').length));
}
