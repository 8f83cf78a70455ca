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
  run(invocation: Invocation<O>): number | Promise<number>;
}

/** Declares a command, keeping its option values typed. */
export function command<const O extends OptionSpecs>(spec: Command<O>): Command<O> {
  return spec;
}

export const HELP_OPTION = { help: { type: 'boolean', short: 'h', help: 'this help' } } as const satisfies OptionSpecs;

/** Parses a command's arguments against its options; unknown options are usage errors. */
export function parseInvocation<O extends OptionSpecs>(cmd: Command<O>, args: string[]): Omit<Invocation<O>, 'help'> {
  const options = Object.fromEntries(
    Object.entries(cmd.options).map(([name, spec]) => [name, { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) }]),
  );
  // A leading "-" digit string (a negative code) is an argument to answer, not an option.
  const negative = cmd.negativeNumbers ? args.filter((arg) => /^-\d/.test(arg)) : [];
  const rest = negative.length ? args.filter((arg) => !/^-\d/.test(arg)) : args;
  try {
    const parsed = parseArgs({ args: [...rest, ...(negative.length ? ['--', ...negative] : [])], options, allowPositionals: true, strict: true });
    return { values: parsed.values as OptionValues<O>, positionals: parsed.positionals };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!;
    const option = (error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'--?([^'=]+)/.exec(message)?.[1] : undefined;
    const unknown = option === undefined ? undefined : { word: option, candidates: Object.keys(cmd.options), as: (name: string) => `--${name}` };
    throw new UsageError(`${message.replace(/\. To specify a positional argument.*$/, '.')}\nRun "cpmx ${cmd.name} --help" for usage.`, unknown);
  }
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
