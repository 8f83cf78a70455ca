/**
 * Issue 22, items 6, 9 and part of 20, as attacks on the command line and the library:
 * `CPMX_DATA`/`--data` naming /dev/zero, a FIFO or a directory (read without bound, or waited
 * on forever); a 60 MB line given to `cpmx query` (quadratic, unbounded); a bad HOST,
 * SOURCE_DATE_EPOCH or CPMX_DOWNLOAD_PAGE and a full stdout (stack traces); the exported error
 * tables and catalogInfo() changed by one caller for every other; credits past 2^53.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArtifactError, createClient, ERRORS } from '../../src/index.js';
import { COLUMN_NAMES, FIELDS, VALIDATION_ERRORS } from '../../src/validate/index.js';
import { BUILD_EPOCH, buildInto, CLI, FIXTURE, root, tempDir } from '../helpers.js';

const dir = tempDir();
let dataPath: string;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI; a run still going after 20 s is stopped (and then fails its test). */
function cpmx(args: string[], env: Record<string, string> = {}, stdout?: number): Run {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, CPMX_DATA: dataPath, CPMX_DOWNLOAD_PAGE: '', ...env },
    timeout: 20_000,
    stdio: ['ignore', stdout ?? 'pipe', 'pipe'],
  });
  return { status: run.status, stdout: run.stdout ?? '', stderr: run.stderr };
}

const NO_TRACE = /\n\s+at |unexpected failure/;

describe('the artifact named by CPMX_DATA or --data', () => {
  it('is refused at once, with what it is, when it is a device, a FIFO no one writes, or a directory', () => {
    const fifo = join(dir, 'artifact.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    mkdirSync(join(dir, 'folder'));
    for (const [path, kind] of [
      ['/dev/zero', 'a device'],
      [fifo, 'a FIFO'],
      [join(dir, 'folder'), 'a directory'],
    ] as const) {
      for (const run of [cpmx(['info_cp', '09810', '--token', 'demo'], { CPMX_DATA: path }), cpmx(['info_cp', '09810', '--token', 'demo', '--data', path])]) {
        expect(run.status, `${path}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toContain(`${path}: is ${kind}, not an artifact file`);
        expect(run.stderr).not.toMatch(NO_TRACE);
      }
      expect(() => createClient({ token: 'demo', dataPath: path })).toThrow(ArtifactError);
    }
  });
});

describe('cpmx query', () => {
  it('answers a line past the server\'s URL bound with the server\'s 414 and goes on, in bounded memory', async () => {
    // A 60 MB line, then a good one: streamed in, so nothing holds the whole input.
    const script = `process.on('exit', () => process.stderr.write('maxRSS ' + process.resourceUsage().maxRSS * 1024 + '\\n')); process.argv = [process.argv[0], ${JSON.stringify(CLI)}, 'query', '--data', ${JSON.stringify(dataPath)}]; await import(${JSON.stringify(CLI)});`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const piece = Buffer.from('/query/info_cp/'.padEnd(1024 * 1024, 'x'));
    for (let i = 0; i < 60; i++) if (!child.stdin.write(piece)) await new Promise((resolve) => child.stdin.once('drain', resolve));
    child.stdin.end('\n/query/info_cp/09810?token=demo&type=simplified\r\n/query/get_estados?token=pruebas');
    expect(await closed, stderr).toBe(0);
    const lines = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { code_error: number; error_message: string });
    expect(lines.map((line) => line.code_error)).toEqual([414, 0, 0]);
    expect(lines[0]!.error_message).toBe('La URL excede 2048 caracteres');
    const peak = Number(/maxRSS (\d+)/.exec(stderr)?.[1]);
    expect(peak).toBeLessThan(200 * 1024 * 1024);
  });

  it('answers one path past the bound 414, exit 1', () => {
    const run = cpmx(['query', `/query/info_cp/09810?token=demo&x=${'y'.repeat(3000)}`]);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: true, code_error: 414 });
  });
});

describe('bad settings from the environment, and a stdout that cannot be written', () => {
  it('are usage errors naming the variable, never stack traces', () => {
    const cases: [string[], Record<string, string>, string][] = [
      [['serve', '--port', '0'], { HOST: 'not a host!' }, 'the HOST environment variable must be an IP address or a host name'],
      [['serve', '--port', '0', '--host', 'no such.host'], {}, '--host must be an IP address or a host name'],
      [['serve', '--port', '0'], { HOST: 'nosuchhost.invalid' }, 'cannot listen on nosuchhost.invalid: no such host'],
      [['build', '--source', FIXTURE, '--out', join(dir, 'epoch.msgpack')], { SOURCE_DATE_EPOCH: '99999999999999999999' }, 'SOURCE_DATE_EPOCH must be whole seconds since 1970'],
      [['download', '--out', join(dir, 'x.zip')], { CPMX_DOWNLOAD_PAGE: 'not a url' }, 'CPMX_DOWNLOAD_PAGE must be an http or https address'],
      [['download', '--out', join(dir, 'x.zip'), '--page-url', 'file:///etc/passwd'], {}, '--page-url must be an http or https address'],
      [['build', '--download'], { CPMX_DOWNLOAD_PAGE: 'ftp://example.com/' }, 'CPMX_DOWNLOAD_PAGE must be an http or https address'],
    ];
    for (const [args, env, message] of cases) {
      const run = cpmx(args, env);
      expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toMatch(NO_TRACE);
    }
    expect(cpmx(['build', '--source', FIXTURE, '--out', join(dir, 'epoch.msgpack')], { SOURCE_DATE_EPOCH: BUILD_EPOCH }).status).toBe(0);
  });

  it('a full stdout (/dev/full) is one line on stderr and exit 74, for answers, streams and validation', () => {
    const full = openSync('/dev/full', 'w');
    try {
      for (const args of [['get_estados', '--token', 'pruebas'], ['query', '/query/get_estados?token=pruebas'], ['status'], ['validate', join(root, 'test', 'fixtures', 'addresses.csv'), '--token', 'pruebas', '--quiet']]) {
        const run = cpmx(args, {}, full);
        expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(74);
        expect(run.stderr).toBe('cpmx: cannot write to stdout (ENOSPC)\n');
      }
    } finally {
      closeSync(full);
    }
  });
});

describe('what the library hands out', () => {
  it('the exported error tables cannot be changed under every client', () => {
    const client = createClient({ token: 'demo', dataPath });
    expect(() => {
      (ERRORS as unknown as Record<number, string[]>)[105]![0] = 'hacked';
    }).toThrow(TypeError);
    expect(() => {
      (ERRORS as unknown as Record<number, unknown>)[105] = ['hacked', 200];
    }).toThrow(TypeError);
    expect(() => {
      (VALIDATION_ERRORS as unknown as Record<number, string>)[122] = 'hacked';
    }).toThrow(TypeError);
    expect(() => (COLUMN_NAMES.cp as string[]).push('estado')).toThrow(TypeError);
    expect(() => (FIELDS as unknown as string[]).reverse()).toThrow(TypeError);
    expect(client.infoCp('99999')).toMatchObject({ code_error: 105, error_message: 'No se encontró el cp' });
  });

  it('catalogInfo() is a copy: changing its source changes nothing another call or client reports', () => {
    const one = createClient({ token: 'demo', dataPath });
    const info = one.catalogInfo();
    const sha256 = info.source.sha256;
    info.source.sha256 = 'forged';
    (info as { rows: number }).rows = -1;
    expect(one.catalogInfo().source.sha256).toBe(sha256);
    expect(createClient({ token: 'demo', dataPath }).catalogInfo()).toMatchObject({ rows: expect.any(Number), source: { sha256 } });
    expect(one.catalogInfo().rows).toBeGreaterThan(0);
  });
});

describe('credits', () => {
  it('cannot be added past 2^53 - 1: refused with a message, the account left as it was', () => {
    const registry = join(dir, 'credits.db');
    const create = spawnSync(process.execPath, [CLI, 'tokens', 'create', '--registry', registry, '--name', 'rich', '--credits', '9007199254740000'], { encoding: 'utf8' });
    expect(create.status, create.stderr).toBe(0);
    const token = create.stdout.trim();
    const credit = (n: string) => cpmx(['tokens', 'credit', token, n, '--registry', registry]);
    expect(credit('991').status).toBe(0);
    const past = credit('1');
    expect(past.status).toBe(2);
    expect(past.stderr).toContain('the account holds 9007199254740991 credits; adding 1 would pass the most an account may hold, 9007199254740991');
    const again = cpmx(['tokens', 'credit', token, '9007199254740991', '--registry', registry]);
    expect(again.status).toBe(2);
    const list = cpmx(['tokens', 'list', '--registry', registry, '--json']);
    expect(JSON.parse(list.stdout)[0].credits).toBe(9007199254740991);
  });
});
