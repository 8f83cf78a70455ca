/**
 * Issue 22, item 1: what an output path names is never destroyed. `validate --output/--fix`,
 * `build --out` and `download --out` write a device, a FIFO or a symlink to one in place (the
 * node stays what it was), write a symlink to a regular file through to its target (the link
 * stays a link), and refuse the input itself however it is named (the same inode by another
 * path, a symlink, a hard link), a directory, and one file given as both --output and --fix.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, closeSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_EPOCH, buildInto, CLI, FIXTURE, tempDir } from '../helpers.js';
import { CorreosReplica } from '../support/correos-replica.js';

const dir = tempDir();
let data: string;
let replica: CorreosReplica;
let cases = 0;

const INPUT = 'cp,colonia\n09810,Granjas Esmeralda\n09810,Narvarte\n';

beforeAll(async () => {
  data = await buildInto(FIXTURE, dir);
  replica = await CorreosReplica.start({ catalog: readFileSync(FIXTURE) });
});
afterAll(() => replica.close());
/** FIFO readers still waiting when a test failed: ended, so the run can exit. */
const readers = new Set<import('node:child_process').ChildProcess>();
afterAll(() => {
  for (const reader of readers) reader.kill();
});

/** A fresh folder for one case, with the input written in it. */
function folder(): { at: (name: string) => string; input: string } {
  const here = join(dir, `case-${++cases}`);
  mkdirSync(here);
  const input = join(here, 'in.csv');
  writeFileSync(input, INPUT);
  return { at: (name) => join(here, name), input };
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cpmx(args: string[], env: Record<string, string> = {}): Run {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, CPMX_DOWNLOAD_PAGE: '', ...env } });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The CLI in a child, asynchronously (a FIFO's reader, the replica, answer meanwhile). */
async function cpmxAsync(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, CPMX_DOWNLOAD_PAGE: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [status] = await once(child, 'close');
  return { status: status as number | null, stdout, stderr };
}

const validateTo = (input: string, ...args: string[]) => ['validate', input, '--data', data, '--token', 'demo', '--quiet', ...args];

/** A FIFO with a reader collecting what is written to it. */
function fifoWithReader(path: string): Promise<string> {
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  const reader = spawn('cat', [path], { stdio: ['ignore', 'pipe', 'inherit'] });
  readers.add(reader);
  reader.on('close', () => readers.delete(reader));
  let read = '';
  reader.stdout.on('data', (chunk) => (read += chunk));
  return once(reader, 'close').then(() => read);
}

describe('validate --output and --fix', () => {
  it('refuse the input itself: by its own name, through a symlink and through a hard link; the input is left as it was', () => {
    const { at, input } = folder();
    symlinkSync(input, at('link.csv'));
    linkSync(input, at('hard.csv'));
    for (const [option, path] of [
      ['--output', input],
      ['--fix', input],
      ['--output', at('link.csv')],
      ['--fix', at('hard.csv')],
      ['--output', join(at('.'), '..', `case-${cases}`, 'in.csv')],
    ] as const) {
      const run = cpmx(validateTo(input, option, path));
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toContain(`cannot write ${option} ${path}: is the input`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(readFileSync(input, 'utf8')).toBe(INPUT);
    }
    expect(lstatSync(at('link.csv')).isSymbolicLink()).toBe(true);
  });

  it('refuse one file as both --output and --fix, and a directory', () => {
    const { at, input } = folder();
    // Two spellings of one path: the strings differ, the file does not.
    const both = cpmx(validateTo(input, '--output', at('same.txt'), '--fix', at('./same.txt').replace('same.txt', './same.txt')));
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('is --output too');
    mkdirSync(at('results'));
    const directory = cpmx(validateTo(input, '--output', at('results')));
    expect(directory.status).toBe(2);
    expect(directory.stderr).toContain('is a directory');
    expect(statSync(at('results')).isDirectory()).toBe(true);
  });

  it('writes a symlink to a device in place: the link stays, pointing at the device, which stays a device', () => {
    const { at, input } = folder();
    symlinkSync('/dev/null', at('null-link'));
    const run = cpmx(validateTo(input, '--output', at('null-link'), '--fix', at('null-link-fix')));
    expect(run.status, run.stderr).toBe(1);
    expect(lstatSync(at('null-link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(at('null-link'))).toBe('/dev/null');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readFileSync(at('null-link-fix'), 'utf8')).toContain('09810,Narvarte,invalid,122');
  });

  it('streams into a FIFO (and a symlink to one): the reader gets the results, the FIFO stays a FIFO', async () => {
    const { at, input } = folder();
    const read = fifoWithReader(at('results.fifo'));
    symlinkSync(at('results.fifo'), at('fifo-link'));
    const run = await cpmxAsync(validateTo(input, '--output', at('fifo-link')));
    expect(run.status, run.stderr).toBe(1);
    const results = (await read).trimEnd().split('\n');
    expect(results.map((line) => JSON.parse(line).valid)).toEqual([true, false]);
    expect(lstatSync(at('results.fifo')).isFIFO()).toBe(true);
    expect(lstatSync(at('fifo-link')).isSymbolicLink()).toBe(true);
  });

  it('writes /dev/stdout in place, even when the shell pointed it at a regular file', () => {
    const { at, input } = folder();
    writeFileSync(at('shell-out.ndjson'), '');
    const before = statSync(at('shell-out.ndjson')).ino;
    const out = openSync(at('shell-out.ndjson'), 'a');
    try {
      const run = spawnSync(process.execPath, [CLI, ...validateTo(input, '--output', '/dev/stdout')], { stdio: ['ignore', out, 'pipe'], encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(1);
    } finally {
      closeSync(out);
    }
    expect(statSync(at('shell-out.ndjson')).ino).toBe(before);
    expect(readFileSync(at('shell-out.ndjson'), 'utf8').trimEnd().split('\n')).toHaveLength(2);
  });

  it('writes a symlink to a regular file through to its target, keeping the link and the target\'s permissions', () => {
    const { at, input } = folder();
    writeFileSync(at('target.ndjson'), 'old results\n');
    chmodSync(at('target.ndjson'), 0o600);
    symlinkSync(at('target.ndjson'), at('link.ndjson'));
    const run = cpmx(validateTo(input, '--output', at('link.ndjson')));
    expect(run.status, run.stderr).toBe(1);
    expect(lstatSync(at('link.ndjson')).isSymbolicLink()).toBe(true);
    expect(readFileSync(at('target.ndjson'), 'utf8')).toMatch(/^\{"line":2,"valid":true/);
    expect(statSync(at('target.ndjson')).mode & 0o777).toBe(0o600);
  });
});

describe('build --out', () => {
  it('refuses the catalog it reads (by another name too), before reading it', () => {
    const { at } = folder();
    const source = at('catalog.txt');
    writeFileSync(source, readFileSync(FIXTURE));
    symlinkSync(source, at('catalog-link.txt'));
    for (const out of [source, at('catalog-link.txt')]) {
      const run = cpmx(['build', '--source', source, '--out', out], { SOURCE_DATE_EPOCH: BUILD_EPOCH });
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toContain('is the input');
      expect(readFileSync(source)).toEqual(readFileSync(FIXTURE));
    }
  });

  it('writes a symlink to a device in place and a symlink to a file through to the file', () => {
    const { at } = folder();
    symlinkSync('/dev/null', at('null-link'));
    const toDevice = cpmx(['build', '--source', FIXTURE, '--out', at('null-link')], { SOURCE_DATE_EPOCH: BUILD_EPOCH });
    expect(toDevice.status, toDevice.stderr).toBe(0);
    expect(readlinkSync(at('null-link'))).toBe('/dev/null');
    writeFileSync(at('real.msgpack'), 'old');
    symlinkSync(at('real.msgpack'), at('file-link'));
    const toFile = cpmx(['build', '--source', FIXTURE, '--out', at('file-link')], { SOURCE_DATE_EPOCH: BUILD_EPOCH });
    expect(toFile.status, toFile.stderr).toBe(0);
    expect(lstatSync(at('file-link')).isSymbolicLink()).toBe(true);
    expect(readFileSync(at('real.msgpack'))).toEqual(readFileSync(data));
  });
});

describe('download --out', () => {
  const download = (out: string) => ['download', '--out', out, '--page-url', replica.pageUrl, '--retries', '0'];

  it('streams into a symlink to a FIFO, leaving the link and the FIFO as they were', async () => {
    const { at } = folder();
    const read = fifoWithReader(at('zip.fifo'));
    symlinkSync(at('zip.fifo'), at('zip-link'));
    const run = await cpmxAsync(download(at('zip-link')));
    expect(run.status, run.stderr).toBe(0);
    expect((await read).startsWith('PK')).toBe(true);
    expect(lstatSync(at('zip-link')).isSymbolicLink()).toBe(true);
    expect(lstatSync(at('zip.fifo')).isFIFO()).toBe(true);
  });

  it('refuses a directory before downloading anything', async () => {
    const { at } = folder();
    mkdirSync(at('zips'));
    const before = replica.requests.length;
    const run = await cpmxAsync(download(at('zips')));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('nothing was downloaded: the catalog cannot be written to');
    expect(run.stderr).toContain('is a directory');
    expect(replica.requests.length).toBe(before);
  });
});
