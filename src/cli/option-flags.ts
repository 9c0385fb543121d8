/**
 * The command-line side of the option tables (`src/internal/option-table.ts`): the flags of a command as rows its
 * parser, `--help` and the docs table all read, the parser itself (flag, then `PCK_*` variable), and the two
 * renderings. A command lists its flags once and gets the rest from here.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { clause, kitMessage } from '../internal/messages.ts';
import {
  type Checked,
  flagEnv,
  type OptionRow,
  Problem,
  problemLine,
  shownDefault,
  yesNo,
} from '../internal/option-table.ts';
import { UsageError } from './flag-values.ts';

/** One flag of a command, as the parser, `--help` and docs/options.md see it. */
export interface CommandFlag {
  /** Kebab-case name, without `--`. */
  readonly name: string;
  /** Its `PCK_*` variable; `''` when it has none. */
  readonly env: string;
  /** What it takes (`n`, `current|legacy|both`); absent for a switch. */
  readonly placeholder?: string;
  readonly help: string;
  /** The default as the docs show it; absent when there is none to show. */
  readonly default?: string;
  /** Where the value goes: an option name (`port`), a path (`assumptions.limits.maxTokens`), or the flag's name. */
  readonly target: string;
  /** The key of the config file that takes the same value, if any. */
  readonly configKey?: string;
  readonly repeatable?: boolean;
  readonly short?: string;
  /** A switch: takes no value; when given (or its variable is true), the target is set to `sets`. */
  readonly switch?: { readonly sets: unknown };
  /** Reads one occurrence's text. */
  readonly read: (raw: string) => Checked<unknown>;
}

/**
 * The flag of a table row, aimed at `target` (default: the row's key).
 *
 * @example
 * flagOfRow('port', mockOptionTable.port) // { name: 'port', env: 'PCK_PORT', placeholder: 'n', ... }
 */
export function flagOfRow(key: string, row: OptionRow, options: { configKey?: string } = {}): CommandFlag {
  const flag = row.flag;
  if (!flag)
    throw new TypeError(
      kitMessage(`option "${key}" has no flag: give its row a flag, or leave it out of the command's flags.`),
    );
  const kind = flag.kind ?? row.kind;
  const isSwitch = 'sets' in flag;
  const placeholder = isSwitch ? undefined : (flag.placeholder ?? kind.placeholder);
  const shown = isSwitch ? 'off' : shownDefault(row);
  return {
    name: flag.name,
    env: flagEnv(flag) ?? '',
    help: flag.help,
    target: key,
    ...(placeholder === undefined ? {} : { placeholder }),
    ...(shown === undefined ? {} : { default: shown }),
    ...(options.configKey === undefined ? {} : { configKey: options.configKey }),
    ...(kind.repeatable ? { repeatable: true } : {}),
    ...(flag.short === undefined ? {} : { short: flag.short }),
    ...(isSwitch ? { switch: { sets: flag.sets } } : {}),
    read: kind.read,
  };
}

/**
 * The flags of every row of `table` that has one, in table order; `config` says whether the config file takes the
 * same key (then the docs name it).
 */
export function flagsOfTable(table: object, config: (key: string, row: OptionRow) => boolean): CommandFlag[] {
  return (Object.entries(table) as [string, OptionRow][])
    .filter(([, row]) => row.flag !== undefined)
    .map(([key, row]) => flagOfRow(key, row, config(key, row) ? { configKey: key } : {}));
}

/** What {@link parseFlags} answers: help asked for, or the values by target and the positionals. */
export interface ParsedFlags {
  readonly help: boolean;
  /** The value of each flag given (on the command line or in its variable), by target. */
  readonly values: ReadonlyMap<string, unknown>;
  readonly positionals: readonly string[];
}

/**
 * Parses `argv` and `env` against `flags`: the flag wins over its variable; a switch is set by the flag or a true
 * variable; a repeatable flag's variable is a comma list. A `--help` flag (target `help`) answers `help: true`.
 * Throws a {@link UsageError} naming the flag or variable, with `prefix` (`verify: `) and how to get the help.
 */
export function parseFlags(
  command: string,
  flags: readonly CommandFlag[],
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  options: { positionals?: boolean; prefix?: string } = {},
): ParsedFlags {
  const prefix = options.prefix ?? '';
  const usage = (text: string) =>
    new UsageError(`${prefix}${clause(text)}. Run "payment-contract-kit ${command} --help" for the options.`);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        flags.map((f) => [
          f.name,
          {
            type: f.switch ? ('boolean' as const) : ('string' as const),
            ...(f.repeatable ? { multiple: true } : {}),
            ...(f.short ? { short: f.short } : {}),
          },
        ]),
      ),
      strict: true,
      allowPositionals: options.positionals ?? false,
    });
  } catch (error) {
    throw usage((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  const given = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (given.help === true) return { help: true, values: new Map(), positionals: parsed.positionals };
  const values = new Map<string, unknown>();
  for (const flag of flags) {
    if (flag.target === 'help') continue;
    const value = flagValue(flag, given[flag.name], env, (subject, problem) => {
      throw usage(problemLine(subject, problem));
    });
    if (value !== undefined) values.set(flag.target, value);
  }
  return { help: false, values, positionals: parsed.positionals };
}

/** The value of one flag from the command line, or else its variable; `undefined` when neither is set. */
function flagValue(
  flag: CommandFlag,
  given: string | boolean | string[] | undefined,
  env: NodeJS.ProcessEnv,
  refuse: (subject: string, problem: Problem) => never,
): unknown {
  const fromEnv = flag.env === '' ? undefined : env[flag.env];
  if (flag.switch) {
    if (given === true) return flag.switch.sets;
    if (fromEnv === undefined) return undefined;
    const on = yesNo.read(fromEnv);
    if (on instanceof Problem) refuse(flag.env, on);
    return on ? flag.switch.sets : undefined;
  }
  const subject = given === undefined ? flag.env : `--${flag.name}`;
  const texts =
    given !== undefined
      ? [given].flat().map(String)
      : fromEnv === undefined || fromEnv === ''
        ? undefined
        : flag.repeatable
          ? fromEnv
              .split(',')
              .map((v) => v.trim())
              .filter(Boolean)
          : [fromEnv];
  if (texts === undefined) return undefined;
  const read = texts.map((raw) => {
    const value = flag.read(raw);
    return value instanceof Problem ? refuse(subject, value) : value;
  });
  return flag.repeatable ? read.flat() : read[0];
}

/**
 * The option lines of `--help`: flag and placeholder, help text, default, variable.
 *
 * @example
 * helpRows(flags) // '  --port <n>      Port to listen on; 0 picks a free port. Default 4010. [env PCK_PORT]'
 */
export function helpRows(flags: readonly CommandFlag[]): string {
  return flags
    .map((f) => {
      const left = `  ${f.short ? `-${f.short}, ` : ''}--${f.name}${f.placeholder ? ` <${f.placeholder}>` : ''}`;
      const shown = f.default !== undefined && !f.switch ? ` Default ${f.default}.` : '';
      const env = f.env ? ` [env ${f.env}]` : '';
      return wrap(`${left.padEnd(39)} ${f.help}${shown}${env}`, 40);
    })
    .join('\n');
}

/** `line` broken at spaces to {@link helpWidth} columns, each further line indented by `indent`. */
function wrap(line: string, indent: number): string {
  const lines: string[] = [];
  let rest = line;
  while (rest.length > helpWidth) {
    const cut = rest.lastIndexOf(' ', helpWidth);
    if (cut <= indent) break;
    lines.push(rest.slice(0, cut));
    rest = `${' '.repeat(indent)}${rest.slice(cut + 1)}`;
  }
  return [...lines, rest].join('\n');
}

/** Width of the `--help` text, as the rest of the help is written. */
const helpWidth = 118;

/** The flags as a Markdown table (flag, variable, config-file key, default, meaning), for docs/options.md. */
export function markdownRows(flags: readonly CommandFlag[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const code = (text: string | undefined) => (text === undefined || text === '' ? '' : `\`${cell(text)}\``);
  const rows = flags.map((f) => {
    const flag = `--${f.name}${f.placeholder ? ` <${f.placeholder}>` : ''}`;
    return `| ${code(flag)} | ${code(f.env)} | ${code(f.configKey)} | ${cell(f.default ?? '')} | ${cell(f.help)} |`;
  });
  return ['| flag | variable | config file | default | what it does |', '|---|---|---|---|---|', ...rows].join('\n');
}
