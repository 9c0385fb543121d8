/**
 * The pieces an option table is written with (the mock's, the proxy's, `verify`'s): a row per option holds its value
 * kind (how code, a config file and a flag's text are checked), its default, and its flag. Everything else (the
 * parser, `--help`, the config-file check, the option table of docs/options.md) is produced from the rows, so an
 * option is declared once. Isomorphic: the mock core imports it; the Node-only parser lives in `src/cli/`.
 *
 * @module
 */

/** Why a value was refused: the end of a sentence that starts with the option's name ("must be ..., got \"x\"."). */
export class Problem {
  /**
   * @param text - what is wrong and how to fix it
   * @param standalone - `text` is a whole sentence naming its own subject (`unknown assumption "x"; ...`), written
   *   after the option's name and a colon rather than right after the name
   */
  constructor(
    readonly text: string,
    readonly standalone = false,
  ) {}
}

/**
 * One line about a refused value: `subject` (`mock option "port"`, `--port`) and the problem.
 *
 * @example
 * problemLine('--port', new Problem('must be a whole number from 0 to 65535, got "x".'))
 */
export function problemLine(subject: string, problem: Problem): string {
  return `${subject}${problem.standalone ? ':' : ''} ${problem.text}`;
}

/** A value read or checked, or the {@link Problem} with it. */
export type Checked<T> = T | Problem;

/**
 * A kind of option value: how the text of a flag or `PCK_*` variable is read, and how a value given in code or in a
 * JSON config file is checked. Both answer the value or a {@link Problem}.
 */
export interface ValueKind<T> {
  /** What the flag takes, as `--help` shows it: `n`, `current|legacy|both`. Absent: a switch, which takes none. */
  readonly placeholder?: string;
  /** Reads the text of a flag or variable. */
  readonly read: (raw: string) => Checked<T>;
  /** Checks a value from code or a config file. */
  readonly check: (value: unknown) => Checked<T>;
  /** The flag may be repeated (each occurrence read by `read`); its variable holds a comma list. */
  readonly repeatable?: boolean;
  /** False when a JSON file cannot hold the value (a function): the config file refuses the key. */
  readonly json?: false;
}

/** The flag of an option: its name, variable and help text. */
export interface FlagDef<T = unknown> {
  /** Kebab-case name, without the leading `--`. */
  readonly name: string;
  /** One sentence or two, without the default (the table adds "Default x." from the row). */
  readonly help: string;
  /** The environment variable; default `PCK_` and the name in upper snake case. `false`: none. */
  readonly env?: string | false;
  /** A switch that takes no value and sets the option to this (`--quiet` sets `log: false`). */
  readonly sets?: T;
  /** How the flag's text is read, when it differs from the row's kind. */
  readonly kind?: ValueKind<T>;
  /** A one-letter alias (`-h`). */
  readonly short?: string;
  /** What the flag takes in `--help`, when the kind's placeholder says too little (`seconds`, `ms`). */
  readonly placeholder?: string;
}

/** One option: its kind, its default, and its flag. */
export interface OptionRow<T = unknown> {
  /** Checks the value from code and from a config file; reads the flag's text unless the flag has its own kind. */
  readonly kind: ValueKind<T>;
  /** The default applied when the option is left out. */
  readonly default?: T;
  /** The default as the docs show it, when it is applied elsewhere (the assumptions ledger, say). */
  readonly shownDefault?: string;
  /** The command-line flag; absent: code and config file only. */
  readonly flag?: FlagDef<T>;
  /** Not accepted in the config file (a CLI switch only, or a value only code can hold). */
  readonly configFile?: false;
}

/** A table of rows keyed by option name; `satisfies` it so each option of the options type has exactly one row. */
export type OptionTable<O> = { readonly [K in keyof O]-?: OptionRow<NonNullable<O[K]>> };

/** The variable of a flag: its own, or `PCK_` and its name in upper snake case; `undefined` when it has none. */
export function flagEnv(flag: FlagDef): string | undefined {
  if (flag.env === false) return undefined;
  return flag.env ?? `PCK_${flag.name.toUpperCase().replaceAll('-', '_')}`;
}

/** The default of a row as `--help` and the docs show it: `4010`, `test-client`, `none`. */
export function shownDefault(row: OptionRow): string | undefined {
  if (row.shownDefault !== undefined) return row.shownDefault;
  const value = row.default;
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  if (value === false) return 'off';
  return typeof value === 'object' ? undefined : String(value);
}

/**
 * Checks every option given in `options` with its row's kind; calls `fail(key, problem)` on the first refusal.
 * Answers the options given (left-out and `undefined` ones dropped), each value as its kind answered it.
 */
export function checkOptions<O extends object>(
  table: { readonly [key: string]: OptionRow<unknown> },
  options: O,
  fail: (key: string, problem: Problem) => never,
): O {
  const out: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  for (const [key, row] of Object.entries(table) as [string, OptionRow][]) {
    const value = (options as Record<string, unknown>)[key];
    if (value === undefined) {
      delete out[key];
      continue;
    }
    const checked = row.kind.check(value);
    if (checked instanceof Problem) fail(key, checked);
    out[key] = checked;
  }
  return out as O;
}

/** The values of a table's defaults, keyed by option. */
export function tableDefaults<O extends object>(table: OptionTable<O>): Partial<O> {
  const out: Record<string, unknown> = {};
  for (const [key, row] of Object.entries(table) as [string, OptionRow][])
    if (row.default !== undefined) out[key] = row.default;
  return out as Partial<O>;
}

// ---------------------------------------------------------------------------------------------------------------
// Value kinds. Problems from text quote what was written (', got "abc".'); problems from code show the value.

const got = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));

/**
 * A whole number from `min` to `max`.
 *
 * @example
 * wholeNumber(0, 65_535).read('70000') // Problem: must be a whole number from 0 to 65535, got "70000".
 */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): ValueKind<number> {
  const range = `from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`;
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= min && n <= max;
  return {
    placeholder: 'n',
    read: (raw) => {
      const n = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
      return ok(n) ? n : new Problem(`must be a whole number ${range}, got "${raw}".`);
    },
    check: (value) => (ok(value) ? value : new Problem(`must be a whole number ${range}; got ${got(value)}.`)),
  };
}

/** A string; `nonEmpty` refuses `""`. `placeholder` names it in `--help` (`host`, `key`). */
export function text(placeholder: string, options: { nonEmpty?: boolean } = {}): ValueKind<string> {
  const check = (value: unknown): Checked<string> =>
    typeof value !== 'string'
      ? new Problem(`must be a string; got ${got(value)}.`)
      : options.nonEmpty && value === ''
        ? new Problem('must not be empty.')
        : value;
  return { placeholder, read: check, check };
}

/**
 * One of `values`.
 *
 * @example
 * oneOf(['text', 'json']).check('xml') // Problem: must be "text" or "json"; got xml.
 */
export function oneOf<const T extends string>(values: readonly T[]): ValueKind<T> {
  const list = (quote: string) =>
    `${values
      .slice(0, -1)
      .map((v) => `${quote}${v}${quote}`)
      .join(', ')} or ${quote}${values.at(-1)}${quote}`;
  const has = (value: unknown): value is T => values.includes(value as T);
  return {
    placeholder: values.join('|'),
    read: (raw) => (has(raw) ? raw : new Problem(`must be ${list('')}, got "${raw}".`)),
    check: (value) => (has(value) ? value : new Problem(`must be ${list('"')}; got ${got(value)}.`)),
  };
}

/** `true` or `false` (a switch on the command line; `1`/`0`, `yes`/`no`, `on`/`off` in a variable). */
export const yesNo: ValueKind<boolean> = {
  read: (raw) => {
    const v = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['', '0', 'false', 'no', 'off'].includes(v)) return false;
    return new Problem(`must be true or false (1/0), got "${raw}".`);
  },
  check: (value) => (typeof value === 'boolean' ? value : new Problem(`must be true or false; got ${got(value)}.`)),
};

/**
 * A list of http(s) URLs: the flag is repeated, its variable holds a comma list.
 *
 * @example
 * httpUrls(isUrl).read('ftp://x') // Problem: must be an http(s) URL such as http://127.0.0.1:3000/webhooks, got "ftp://x".
 */
export function httpUrls(isHttpUrl: (raw: string) => boolean): ValueKind<readonly string[]> {
  const example = 'http://127.0.0.1:3000/webhooks';
  return {
    placeholder: 'url',
    repeatable: true,
    read: (raw) => (isHttpUrl(raw) ? [raw] : new Problem(`must be an http(s) URL such as ${example}, got "${raw}".`)),
    check: (value) => {
      if (!Array.isArray(value)) return new Problem(`must be an array of http(s) URLs; got ${got(value)}.`);
      for (const url of value)
        if (typeof url !== 'string' || !isHttpUrl(url))
          return new Problem(
            `holds "${String(url)}", which is not an http(s) URL; give a full URL such as ${example}.`,
          );
      return value as readonly string[];
    },
  };
}

/**
 * A kind from a parser that throws (a `TypeError` through `kitMessage`, as the mock's own parsers do) and takes both
 * the flag's text and the value given in code (`parseCorsOrigins` takes `'*'`, a list or `false`). From code, the
 * problem is the message after the option's name; from text, the whole message, after the flag and a colon.
 */
export function parsedBy<T, I = string>(
  placeholder: string | undefined,
  parse: (value: string | I) => T,
): ValueKind<T> {
  const attempt = (value: unknown, fromText: boolean): Checked<T> => {
    try {
      return parse(value as string | I);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).replace(
        /^\[payment-contract-kit\] /,
        '',
      );
      return fromText ? new Problem(message, true) : new Problem(message.replace(/^\w+ option "[^"]*" /, ''));
    }
  };
  return {
    ...(placeholder === undefined ? {} : { placeholder }),
    read: (raw) => attempt(raw, true),
    check: (value) => attempt(value, false),
  };
}

/** A value code and a JSON config file give alike, with no flag (`clients`, `assumptions`). */
export function codeOrJson<T>(check: (value: unknown) => Checked<T>): ValueKind<T> {
  return { read: () => new Problem('cannot be given as text.'), check };
}

/** A value only code can give (a function, a sink): `check` alone; refused in a config file. */
export function codeOnly<T>(check: (value: unknown) => Checked<T>): ValueKind<T> {
  return { read: () => new Problem('cannot be given as text.'), check, json: false };
}
