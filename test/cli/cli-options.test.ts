/**
 * Issue 37 item 12: a negative value of a numeric option (`--limit -5`, `--jobs -1`,
 * `--port -1`) answered "argument is ambiguous". Every numeric option of every command, taken
 * from where the options are declared (the command table), must say what it takes, exit 2.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NUMERIC_VALUES, UsageError, numericKind, parseInvocation, type OptionSpec } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { CLI, FIXTURE, buildInto, tempDir } from '../helpers.js';

/** Placeholders of options whose value is text (a path, a name, a token...) or a signed coordinate (LAT, LNG: a negative one is its value). */
const TEXT_VALUES = new Set(['LAT', 'LNG', 'FILE', 'FILE|URL', 'URL', 'T', 'NAME', 'H', 'E', 'M', 'C', 'CLAVE', 'CSV', 'OLD', 'FIELD=NAME', 'csv|ndjson', 'ndjson|csv', 'simplified', 'VALUE']);

const options = COMMANDS.flatMap((cmd) => Object.entries(cmd.options as Record<string, OptionSpec>).map(([name, spec]) => ({ cmd: cmd.name, name, spec })));
const numeric = options.filter(({ spec }) => numericKind(spec) !== undefined);

function cpmx(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, CPMX_TOKEN: '', ...env }, timeout: 20_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('numeric options', () => {
  it('every option value is declared as a number or as text, so a new numeric option is in the table below', () => {
    const unclassified = options.filter(({ spec }) => spec.type === 'string' && !NUMERIC_VALUES[spec.value ?? 'VALUE'] && !TEXT_VALUES.has(spec.value ?? 'VALUE'));
    expect(unclassified.map(({ cmd, name, spec }) => `cpmx ${cmd} --${name} ${spec.value}`)).toEqual([]);
    // The ones the issue names are among them.
    for (const [cmd, name] of [
      ['search_cp_advanced', 'limit'],
      ['validate', 'jobs'],
      ['serve', 'port'],
    ]) {
      expect(numeric.some((option) => option.cmd === cmd && option.name === name), `${cmd} --${name}`).toBe(true);
    }
  });

  it('refuse a negative value, saying what they take: exit 2, never "ambiguous"', () => {
    const failures: string[] = [];
    for (const { cmd, name, spec } of numeric) {
      const run = cpmx([cmd, `--${name}`, '-1']);
      const wanted = `--${name} must be ${NUMERIC_VALUES[spec.value!]}, got "-1"`;
      if (run.status !== 2 || !run.stderr.includes(wanted) || /ambiguous/.test(run.stderr) || run.stdout !== '') {
        failures.push(`cpmx ${cmd} --${name} -1: exit ${run.status}, ${JSON.stringify(run.stderr)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuse it however it is written (--name=-5, a negative decimal), as the parser reads every command', () => {
    for (const { cmd, name, spec } of numeric) {
      const command = COMMANDS.find((one) => one.name === cmd)!;
      for (const [args, value] of [
        [[`--${name}=-5`], '-5'],
        [[`--${name}`, '-0.5'], '-0.5'],
        [[`--${name}`, '-.5'], '-.5'],
      ] as [string[], string][]) {
        expect(() => parseInvocation(command, args), `cpmx ${cmd} ${args.join(' ')}`).toThrow(`--${name} must be ${NUMERIC_VALUES[spec.value!]}, got "${value}"`);
        expect(() => parseInvocation(command, args)).toThrow(UsageError);
      }
    }
  });

  it('a negative number given to a text option is its value, not an option (a negative code stays an argument)', async () => {
    const dataPath = await buildInto(FIXTURE, tempDir());
    const token = cpmx(['get_estados', '--token', '-5', '--data', dataPath]);
    expect(token.status, token.stderr).toBe(0);
    const negativeCode = cpmx(['info_cp', '-1234', '--data', dataPath]);
    expect(negativeCode.status).toBe(1);
    expect(JSON.parse(negativeCode.stdout).code_error).toBe(104);
    // A negative count given as an argument is refused for what it is, too.
    const credit = cpmx(['tokens', 'credit', 'some-token', '-5', '--registry', join(tempDir(), 'none.sqlite')]);
    expect(credit.status).toBe(2);
    expect(credit.stderr).toContain('N must be a whole number from 1, got "-5"');
    // The contract still answers a limit out of range that is not negative.
    const zero = cpmx(['search_cp_advanced', 'cdmx', '--limit', '0', '--data', dataPath]);
    expect(zero.status).toBe(1);
    expect(JSON.parse(zero.stdout).code_error).toBe(117);
  });
});
