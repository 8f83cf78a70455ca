/**
 * What a command of the `cpmx` command line is: its name, arguments, options, help and what
 * it runs. The command table (commands/index.ts) lists them; the dispatcher and every help
 * text are made from it, so a command's help cannot drift from what it accepts.
 */
import { parseArgs } from 'node:util';

/** Exit statuses: a success envelope, an error envelope (or a failed job), a usage error (or no catalog to answer from). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Wrong arguments: the message says what was wrong; the exit status is 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** A mistyped name and what it may have meant to be, for the closest one to be suggested. */
    readonly unknown?: { word: string; candidates: readonly string[]; as: (name: string) => string },
  ) {
    super(message);
  }
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** The value's placeholder in help (`FILE`, `N`). */
  value?: string;
  help: string;
}

export type OptionSpecs = Record<string, OptionSpec>;

/** The parsed values of a command's options, typed from their specs. */
export type OptionValues<O extends OptionSpecs> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : O[K]['multiple'] extends true ? string[] : string;
};

export interface Invocation<O extends OptionSpecs> {
  values: OptionValues<O>;
  positionals: string[];
  /** Prints the command's help; returns the exit status to end with. */
  help(): number;
}

export interface Command<O extends OptionSpecs = OptionSpecs> {
  name: string;
  /** What follows the name in the usage line, options left out (`<cp>`, `[FILE|-]`). */
  synopsis: string;
  /** One line for the overview. */
  summary: string;
  /** What it does, in paragraphs. */
  description: string;
  options: O;
  /** What its exit status means. */
  exit: string;
  /** Options that appear in the usage line, beside the synopsis. */
  usageOptions?: string;
  /** A lookup of the contract (listed apart in the overview); tools leave it unset. */
  lookup?: boolean;
  /** Positional arguments that look like options (a negative code) are kept as arguments. */
  negativeNumbers?: boolean;
  /** Says on stderr when the catalog is more than a year old (build, serve); other commands say nothing of it. */
  warnsOldCatalog?: boolean;
  run(invocation: Invocation<O>): number | Promise<number>;
}

/** Declares a command, keeping its option values typed. */
export function command<const O extends OptionSpecs>(spec: Command<O>): Command<O> {
  return spec;
}

export const HELP_OPTION = { help: { type: 'boolean', short: 'h', help: 'this help' } } as const satisfies OptionSpecs;

/**
 * The value placeholders of options that take a number, and what number: none of cpmx's
 * numeric options takes a negative value. An option declared with one of these is one.
 */
export const NUMERIC_VALUES: Readonly<Record<string, string>> = {
  N: 'a positive whole number',
  MS: 'a positive whole number of milliseconds',
  DAYS: 'a positive whole number of days',
  SECONDS: 'a positive whole number of seconds',
  S: 'a positive number of seconds',
  P: 'a port number from 0 to 65535',
  DURATION: 'a positive duration (30m, 6h, 1d)',
  SHARE: 'a share from 0 to 100% (0.05 or 5%)',
};

/** A negative number given as a value ("-5", "-0.5", "-1d"): never an option's name. */
const NEGATIVE = /^-\.?\d/;

/** What number a numeric option takes (NUMERIC_VALUES), undefined for any other option. */
export function numericKind(spec: OptionSpec | undefined): string | undefined {
  return spec?.type === 'string' && spec.value !== undefined ? NUMERIC_VALUES[spec.value] : undefined;
}

/**
 * `--name -5`: parseArgs reads "-5" as an option and calls the value ambiguous. A string
 * option's value that is a negative number is its value (`--name=-5`); a numeric option then
 * refuses it by saying what it takes.
 */
function joinNegativeValues(cmd: { options: OptionSpecs }, args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...joined, ...args.slice(i)];
    const name = /^--([^=]+)$/.exec(arg)?.[1];
    const next = args[i + 1];
    if (name !== undefined && cmd.options[name]?.type === 'string' && next !== undefined && NEGATIVE.test(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

/** Refuses a negative value of a numeric option, however it was written (`--limit -5`, `--limit=-5`). */
function refuseNegativeNumbers(cmd: { name: string; options: OptionSpecs }, values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) {
    const kind = numericKind(cmd.options[name]);
    const negative = kind && [value].flat().find((one) => typeof one === 'string' && NEGATIVE.test(one));
    if (negative) throw new UsageError(`--${name} must be ${kind}, got "${negative}"\nRun "cpmx ${cmd.name} --help" for usage.`);
  }
}

/** Parses a command's arguments against its options; unknown options are usage errors. */
export function parseInvocation<O extends OptionSpecs>(cmd: Command<O>, given: string[]): Omit<Invocation<O>, 'help'> {
  const options = Object.fromEntries(
    Object.entries(cmd.options).map(([name, spec]) => [name, { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) }]),
  );
  const args = joinNegativeValues(cmd, given);
  // A leading "-" digit string (a negative code) is an argument to answer, not an option.
  const negative = cmd.negativeNumbers ? args.filter((arg) => /^-\d/.test(arg)) : [];
  const rest = negative.length ? args.filter((arg) => !/^-\d/.test(arg)) : args;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...rest, ...(negative.length ? ['--', ...negative] : [])], options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!;
    const option = (error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'--?([^'=]+)/.exec(message)?.[1] : undefined;
    const unknown = option === undefined ? undefined : { word: option, candidates: Object.keys(cmd.options), as: (name: string) => `--${name}` };
    throw new UsageError(`${message.replace(/\. To specify a positional argument.*$/, '.')}\nRun "cpmx ${cmd.name} --help" for usage.`, unknown);
  }
  refuseNegativeNumbers(cmd, parsed.values);
  return { values: parsed.values as OptionValues<O>, positionals: parsed.positionals };
}

/** The one positional argument a command takes (or none when not required). */
export function onePositional(positionals: string[], commandName: string, name: string, required = false): string | undefined {
  if (positionals.length > 1) throw new UsageError(`cpmx ${commandName} takes one <${name}>, got ${positionals.length}: ${positionals.join(' ')}\nQuote a value that has spaces.`);
  if (required && positionals.length === 0) throw new UsageError(`cpmx ${commandName} needs <${name}>.\nRun "cpmx ${commandName} --help" for usage.`);
  return positionals[0];
}

export function noPositionals(positionals: string[], commandName: string, hint = ''): void {
  if (positionals.length) throw new UsageError(`cpmx ${commandName} takes no positional argument, got: ${positionals.join(' ')}${hint ? `\n${hint}` : ''}`);
}

/** A whole number option or argument within bounds. */
export function integer(value: string, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${name} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}, got "${value}"`);
  }
  return Number(value);
}

/** Prints a body: indented on a terminal, one line when piped. */
export function print(body: unknown, pretty = process.stdout.isTTY === true): void {
  process.stdout.write(`${pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body)}\n`);
}

/** A command's usage line, as its help begins (and a missing argument's message ends). */
export function usageLine(cmd: Command): string {
  return `Usage: cpmx ${cmd.name}${cmd.synopsis ? ` ${cmd.synopsis}` : ''}${cmd.usageOptions ? ` ${cmd.usageOptions}` : ''}`;
}
