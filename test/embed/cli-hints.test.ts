/**
 * The command line for a person at the keyboard: the closest command or option to a typo, how
 * to give a request path a token when it has none, on a terminal, and a code that lost its leading zero.
 * Hints go to stderr and change neither the answer nor the exit status.
 */
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURE, buildInto, tempDir } from '../helpers.js';

const dir = tempDir();
let dataPath: string;

function cpmx(args: string[]) {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), CPMX_DATA: dataPath };
  delete env.CPMX_TOKEN;
  const run = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', input: '' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
});

describe('typos', () => {
  it('suggest the closest command, and nothing when none is close', () => {
    for (const [typed, meant] of [
      ['inof_cp', 'info_cp'],
      ['info-cp', 'info_cp'],
      ['serch_cp', 'search_cp'],
      ['get_estado', 'get_estados'],
      ['tokn', 'tokens'],
    ]) {
      const run = cpmx([typed!, '09810']);
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(`cpmx: unknown command "${typed}". Did you mean ${meant}?\nRun "cpmx --help" for the commands.\n`);
    }
    const far = cpmx(['frobnicate']);
    expect(far.status).toBe(2);
    expect(far.stderr).not.toContain('Did you mean');
  });

  it('suggest the closest option of the command', () => {
    const token = cpmx(['info_cp', '09810', '--tokn', 'demo']);
    expect(token.status).toBe(2);
    expect(token.stderr).toBe(`cpmx: Unknown option '--tokn'. Did you mean --token?\nRun "cpmx info_cp --help" for usage.\n`);
    expect(cpmx(['serve', '--prot', '3000']).stderr).toContain('Did you mean --port?');
    expect(cpmx(['build', '--sorce=x.zip']).stderr).toContain('Did you mean --source?');
    expect(cpmx(['info_cp', '09810', '--frobnicate']).stderr).not.toContain('Did you mean');
  });
});

describe('a code without its leading zero', () => {
  it('still answers 102, and says on stderr that the 5-digit code exists', () => {
    const run = cpmx(['info_cp', '9810', '--token', 'demo']);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: true, code_error: 102 });
    expect(run.stderr).toBe('cpmx: 09810 exists: postal codes have 5 digits, and a leading zero is often lost (cpmx info_cp 09810)\n');
  });

  it('says nothing when the 5-digit code does not exist, in test mode, or for other lengths', () => {
    for (const args of [['9999'], ['9810', '--token', 'pruebas'], ['981'], ['98100']]) {
      const run = cpmx(['info_cp', ...args, ...(args.includes('--token') ? [] : ['--token', 'demo'])]);
      expect(run.status).toBe(1);
      expect(run.stderr).toBe('');
    }
  });
});

describe('a missing token', () => {
  it('a lookup needs none: it answers from the local catalog, on a terminal or piped', () => {
    const run = spawnSync('script', ['-qec', `${process.execPath} ${CLI} info_cp 09810 --data ${dataPath}`, '/dev/null'], { encoding: 'utf8', env: { ...process.env, CPMX_TOKEN: '' } });
    if (run.error) throw new Error(`script (util-linux) is needed to run cpmx on a terminal: ${run.error.message}`);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('"cp": "09810"');
    const piped = cpmx(['info_cp', '09810']);
    expect(piped.status).toBe(0);
    expect(piped.stderr).toBe('');
  });

  it('a request path on a terminal: the 106 body, as over HTTP, then how to give it a token on stderr', () => {
    // `script` runs the command under a pseudo-terminal (util-linux, in every Debian).
    const run = spawnSync('script', ['-qec', `${process.execPath} ${CLI} query /query/info_cp/09810 --data ${dataPath}`, '/dev/null'], { encoding: 'utf8', env: { ...process.env, CPMX_TOKEN: '' } });
    if (run.error) throw new Error(`script (util-linux) is needed to run cpmx on a terminal: ${run.error.message}`);
    expect(run.status).toBe(1);
    const out = run.stdout;
    expect(out).toContain('"code_error": 106');
    expect(out).toMatch(/cpmx: a request path answers as the HTTP API does: give it a token \(token=T in the path, --token T or CPMX_TOKEN\)/);
    expect(out).toContain('"pruebas" gives test mode');
  });

  it('a request path piped: the 106 body alone', () => {
    const run = cpmx(['query', '/query/info_cp/09810']);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).code_error).toBe(106);
    expect(run.stderr).toBe('');
  });
});
