/**
 * The build trusts nothing it reads (issue 15): damaged, padded and oversized zips, a zip
 * bomb, long lines, mixed line endings, encodings that change, pipes and FIFOs, and a build
 * killed just before its fsync. Every damaged input is made here, at run time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { constants, crc32 as nodeCrc32, deflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildArtifact, type BuildOptions } from '../../build/build.js';
import { tableCrc32 } from '../../build/crc32.js';
import { CatalogError } from '../../build/errors.js';
import { DEFAULT_LIMITS } from '../../build/limits.js';
import { loadCatalog } from '../../src/client/catalog-source.js';
import { CLI, FIXTURE, tempDir } from '../helpers.js';
import { contentOf, fixtureBytes, fixtureLines, memberDataRange, seeded, syntheticCatalog, zipOf } from '../support/catalogs.js';

const dir = tempDir();
let count = 0;

function write(name: string, content: string | Uint8Array): string {
  const path = join(dir, `${++count}-${name}`);
  writeFileSync(path, typeof content === 'string' ? Buffer.from(content, 'latin1') : content);
  return path;
}

/** Builds and returns the artifact's bytes, or the CatalogError it was refused with; a refusal writes nothing. */
async function attempt(source: string | string[], options: Partial<BuildOptions> = {}): Promise<Buffer | CatalogError> {
  const out = options.out ?? join(dir, `${++count}.msgpack`);
  try {
    await buildArtifact({ source, ...options, out });
    return readFileSync(out);
  } catch (error) {
    if (!(error instanceof CatalogError)) throw error;
    expect(existsSync(out)).toBe(false);
    return error;
  }
}

async function refusal(source: string | string[], options: Partial<BuildOptions> = {}): Promise<CatalogError> {
  const result = await attempt(source, options);
  if (!(result instanceof CatalogError)) throw new Error(`expected ${source} to be refused, and it was built`);
  return result;
}

async function built(source: string | string[], options: Partial<BuildOptions> = {}): Promise<Buffer> {
  const result = await attempt(source, options);
  if (result instanceof CatalogError) throw result;
  return result;
}

/** A zip with one member written by hand, so that every header field can be what a test needs. */
function handZip(name: string, data: Buffer, fields: { method: number; crc: number; size: number }): Buffer {
  const nameBytes = Buffer.from(name, 'latin1');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(fields.method, 8);
  local.writeUInt16LE(0x5000, 10); // 10:00
  local.writeUInt16LE(((2026 - 1980) << 9) | (1 << 5) | 15, 12); // 2026-01-15
  local.writeUInt32LE(fields.crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(fields.size, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  local.copy(central, 8, 6, 30); // flags to name length, as in the local header
  central.writeUInt32LE(0, 42);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nameBytes.length, 12);
  end.writeUInt32LE(30 + nameBytes.length + data.length, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

let reference: unknown;
let synthetic: string;
let syntheticReference: unknown;

beforeAll(async () => {
  reference = contentOf(await built(FIXTURE));
  synthetic = syntheticCatalog(400);
  syntheticReference = contentOf(await built(write('synthetic.txt', synthetic)));
});

describe('the zip is verified before any row is used', () => {
  it('computes CRC-32 as zlib does, with or without the native function', () => {
    const random = seeded(7);
    const data = Buffer.from(Array.from({ length: 10_000 }, () => Math.floor(random() * 256)));
    expect(tableCrc32(data)).toBe(nodeCrc32(data));
    expect(tableCrc32(data.subarray(5000), tableCrc32(data.subarray(0, 5000)))).toBe(nodeCrc32(data));
  });

  it('refuses a single flipped bit in the deflate data as damage, or builds the very same catalog', async () => {
    const zip = zipOf({ 'CPdescarga.txt': synthetic });
    const { start, end } = memberDataRange(zip);
    const random = seeded(42);
    const outcomes = { refused: 0, same: 0 };
    for (let i = 0; i < 150; i++) {
      const damaged = Buffer.from(zip);
      const bit = Math.floor(random() * (end - start) * 8);
      damaged[start + (bit >> 3)]! ^= 1 << (bit & 7);
      const result = await attempt(write('flipped.zip', damaged));
      if (result instanceof CatalogError) {
        // Damage is found by the zip's own checks, never as whatever line it garbles.
        expect(result.message, `bit ${bit}`).toMatch(/: the zip is damaged: CPdescarga\.txt (fails its CRC-32 check|cannot be inflated|inflates to)/);
        outcomes.refused++;
      } else {
        expect(contentOf(result), `bit ${bit}`).toEqual(syntheticReference);
        outcomes.same++;
      }
    }
    expect(outcomes.refused).toBeGreaterThan(140);
  });

  it('refuses a flipped bit anywhere in the zip, or builds the very same catalog', async () => {
    const zip = zipOf({ 'CPdescarga.txt': synthetic });
    const { start, end } = memberDataRange(zip);
    const headers = [...Array(start).keys(), ...Array.from({ length: zip.length - end }, (_, i) => end + i)];
    const random = seeded(1);
    for (let i = 0; i < 80; i++) {
      const damaged = Buffer.from(zip);
      const at = headers[Math.floor(random() * headers.length)]!;
      damaged[at]! ^= 1 << Math.floor(random() * 8);
      const result = await attempt(write('flipped-header.zip', damaged));
      if (!(result instanceof CatalogError)) expect(contentOf(result), `byte ${at}`).toEqual(syntheticReference);
    }
  });

  it('reads a member stored without compression, and checks its CRC-32 too', async () => {
    const text = Buffer.from(synthetic, 'latin1');
    const stored = handZip('CPdescarga.txt', text, { method: 0, crc: nodeCrc32(text), size: text.length });
    expect(contentOf(await built(write('stored.zip', stored)))).toEqual(syntheticReference);
    const damaged = Buffer.from(stored);
    damaged[1000]! ^= 0x20;
    expect((await refusal(write('stored-damaged.zip', damaged))).message).toMatch(/the zip is damaged: CPdescarga\.txt fails its CRC-32 check/);
  });

  it('builds a zip with another member after the catalog, hashing the whole file', async () => {
    const zip = zipOf({ 'CPdescarga.txt': fixtureBytes, 'LEEME.txt': 'Léame'.repeat(5000) });
    const path = write('trailing.zip', zip);
    const bytes = await built(path);
    expect(contentOf(bytes)).toEqual(reference);
    const artifact = loadCatalog(join(dir, `${count}.msgpack`));
    expect(artifact.header.source).toMatchObject({ bytes: zip.length, sha256: createHash('sha256').update(zip).digest('hex'), date: '2026-01-15T10:30:00' });
  });

  it('refuses two catalog members, naming both, whichever comes first', async () => {
    const two = zipOf({ 'a/CPdescarga.txt': fixtureBytes, 'b/cpdescarga.TXT': fixtureBytes });
    expect((await refusal(write('two.zip', two))).message).toMatch(
      /two\.zip: the zip holds 2 CPdescarga\.txt members \("a\/CPdescarga\.txt", "b\/cpdescarga\.TXT"\); expected exactly one/,
    );
  });

  it('refuses a zip bomb: by its declared size before inflating, or as soon as it inflates past what it declares', async () => {
    // Blocks flushed with Z_SYNC_FLUSH are byte-aligned and self-contained: repeated, they
    // inflate to the text as many times over, from a zip of a few MB (the 12 MB zip gave 3.6 GB).
    const text = Buffer.from(`${fixtureLines.slice(2).join('\r\n')}\r\n`.repeat(4000), 'latin1');
    const block = deflateRawSync(text, { finishFlush: constants.Z_SYNC_FLUSH });
    const repeats = Math.floor(3.6e9 / text.length);
    const data = Buffer.concat([...Array<Buffer>(repeats).fill(block), Buffer.from([0x03, 0x00])]);
    let crc = 0;
    for (let i = 0; i < repeats; i++) crc = nodeCrc32(text, crc);
    const honest = write('bomb.zip', handZip('CPdescarga.txt', data, { method: 8, crc, size: text.length * repeats }));
    expect(statSync(honest).size).toBeLessThan(32e6);
    expect((await refusal(honest)).message).toBe(
      `${basename(honest)} (CPdescarga.txt): the zip declares CPdescarga.txt to be ${text.length * repeats} bytes once inflated, over the limit of ${DEFAULT_LIMITS.maxBytes} (--max-bytes raises it)`,
    );

    // The same bomb claiming 8 MB: refused once 8 MB are out, in a process that stays small.
    const lying = write('lying-bomb.zip', handZip('CPdescarga.txt', data, { method: 8, crc, size: 8 * 1024 * 1024 }));
    const run = runCli(['build', '--source', lying, '--out', join(dir, 'bomb.msgpack')], { measureMemory: true });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('the zip is damaged: CPdescarga.txt inflates to more than the 8388608 bytes its header declares');
    expect(run.maxRssBytes).toBeLessThan(200 * 1024 * 1024);
  });
});

describe('bounds, with options to raise them', () => {
  it('refuses a long first line at line 1 as soon as it passes the limit', async () => {
    const long = write('long-first.txt', `${'x'.repeat(80 * 1024 * 1024)}\r\n${fixtureLines.slice(1).join('\r\n')}`);
    const error = await refusal(long);
    expect(error.line).toBe(1);
    expect(error.message).toBe(`${basename(long)}, line 1: the line is longer than 4096 bytes (--max-line-bytes raises the limit)`);
  });

  it('reads a 32 MB first line whole when the limit is raised (linear in its length)', async () => {
    const notice = 'Aviso '.repeat((32 * 1024 * 1024) / 6);
    const bytes = await built(write('long-notice.txt', `${notice}\r\n${fixtureLines.slice(1).join('\r\n')}`), { limits: { maxLineBytes: 64 * 1024 * 1024 } });
    expect(contentOf(bytes)).toEqual(reference);
    expect(loadCatalog(join(dir, `${count}.msgpack`)).header.notice).toHaveLength(notice.trim().length);
  });

  it('refuses more rows than the limit, at the first row past it, over all sources together', async () => {
    const rows = write('rows.txt', synthetic);
    const error = await refusal(rows, { limits: { maxRows: 300 } });
    expect(error.message).toBe(`${basename(rows)}, line 303: has more than 300 rows, the limit (--max-rows raises it)`);
    const two = [write('rows-a.txt', syntheticCatalog(200)), write('rows-b.txt', syntheticCatalog(200))];
    expect((await refusal(two, { limits: { maxRows: 300 } })).message).toMatch(/rows-b\.txt, line 103: has more than 300 rows with the files before it/);
  });

  it('refuses a source over the size limit, a file by its size, a zip member by what it declares', async () => {
    const path = write('big.txt', synthetic);
    expect((await refusal(path, { limits: { maxBytes: 10_000 } })).message).toBe(`${path}: is ${synthetic.length} bytes, over the limit of 10000 (--max-bytes raises it)`);
    const zip = write('big.zip', zipOf({ 'CPdescarga.txt': synthetic }));
    expect((await refusal(zip, { limits: { maxBytes: 10_000 } })).message).toMatch(/the zip declares CPdescarga\.txt to be \d+ bytes once inflated, over the limit of 10000/);
  });
});

describe('lines and encodings', () => {
  it('reads CRLF, LF and CR mixed in one file as the same catalog, numbering every line', async () => {
    const endings = ['\r\n', '\n', '\r'];
    const mixed = fixtureLines.map((line, i) => `${line}${endings[i % 3]}`).join('');
    expect(contentOf(await built(write('mixed-endings.txt', mixed)))).toEqual(reference);
    const bad = fixtureLines.map((line, i) => `${i === 16 ? line.replace(/^\d{5}/, '123') : line}${endings[i % 3]}`).join('');
    expect((await refusal(write('mixed-bad.txt', bad))).message).toMatch(/, line 17: d_codigo "123" is not a 5-digit postal code$/);
    // A CR ending one chunk and its LF starting the next still count one line ending.
    const crlfAtBoundary = Buffer.from(syntheticCatalog(1000), 'latin1');
    const split = crlfAtBoundary.indexOf('\r\n', 64 * 1024 - 40);
    const padded = Buffer.concat([crlfAtBoundary.subarray(0, split), Buffer.from(' '.repeat(64 * 1024 - 1 - split)), crlfAtBoundary.subarray(split)]);
    expect(padded[64 * 1024 - 1]).toBe(13);
    expect(contentOf(await built(write('boundary.txt', padded)))).toEqual(contentOf(await built(write('unpadded.txt', crlfAtBoundary))));
  });

  it('reports a UTF-8 error at its own line, deep in the file and far from any chunk start', async () => {
    const lines = syntheticCatalog(5000).split('\r\n');
    const utf8 = Buffer.concat(lines.map((line, i) => Buffer.from(`${line}\r\n`, i === 4321 - 1 ? 'latin1' : 'utf8')));
    const path = write('utf8-then-latin1.txt', utf8);
    const error = await refusal(path);
    expect(error.message).toBe(`${basename(path)}, line 4321: not valid UTF-8, although the file is UTF-8 from line 1 on (a file mixing encodings)`);
  });
});

describe('pipes and FIFOs, read as streams', () => {
  function fifo(name: string): string {
    const path = join(dir, `${++count}-${name}`);
    const made = spawnSync('mkfifo', [path]);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
    return path;
  }

  /** Writes `bytes` into the FIFO once a reader opens it. */
  function feed(path: string, bytes: Uint8Array): Promise<unknown> {
    const writer = createWriteStream(path);
    writer.end(bytes);
    return once(writer, 'close');
  }

  it('builds from a FIFO: the same catalog, the sha256 of every byte, no date', async () => {
    const path = fifo('catalog.fifo');
    const [bytes] = await Promise.all([built(path), feed(path, fixtureBytes)]);
    expect(contentOf(bytes)).toEqual(reference);
    const { source } = loadCatalog(join(dir, `${count}.msgpack`)).header;
    expect(source).toEqual({ file: path.split('/').pop(), sha256: createHash('sha256').update(fixtureBytes).digest('hex'), bytes: fixtureBytes.length, encoding: 'latin1' });
  });

  it('builds a zip through a FIFO, dated by its member', async () => {
    const path = fifo('catalog-zip.fifo');
    const [bytes] = await Promise.all([built(path), feed(path, zipOf({ 'CPdescarga.txt': fixtureBytes }))]);
    expect(contentOf(bytes)).toEqual(reference);
    expect(loadCatalog(join(dir, `${count}.msgpack`)).header.source).toMatchObject({ date: '2026-01-15T10:30:00', dateFrom: 'zip-entry' });
  });

  it('gives up on a FIFO nobody writes to, saying why, after saying it waits', async () => {
    const path = fifo('nobody.fifo');
    const waiting: string[] = [];
    const error = await refusal(path, { limits: { openTimeoutMs: 400 }, onWaiting: (p) => waiting.push(p) });
    expect(error.message).toBe(`${path}: is a FIFO that no process opened for writing within 400 ms; start the writer first, or pass a file`);
    expect(waiting).toEqual([path]);
    // Nothing stays blocked on it: a writer can still come, and a later build reads it.
    const [bytes] = await Promise.all([built(path), feed(path, fixtureBytes)]);
    expect(contentOf(bytes)).toEqual(reference);
  });

  it('cpmx build --source - reads stdin', () => {
    const out = join(dir, 'stdin.msgpack');
    const run = runCli(['build', '--source', '-', '--out', out], { input: fixtureBytes });
    expect(run.stderr).toContain('reading - (--source)');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('catalog dated unknown (read from a pipe)');
    expect(contentOf(readFileSync(out))).toEqual(reference);
  });
});

describe('a build killed at fsync', () => {
  it('leaves a temporary file that the next build removes, and the old artifact as it was', async () => {
    const folder = join(dir, 'killed');
    mkdirSync(folder);
    const out = join(folder, 'cpmx.msgpack');
    await built(FIXTURE, { out });
    const before = readFileSync(out);

    // fs.fsyncSync replaced before the CLI loads: the build announces it reached the fsync and
    // waits there, so the kill lands exactly between the write and the rename.
    const hold = `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
fs.fsyncSync = () => { process.stdout.write('at fsync\\n'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); };
syncBuiltinESMExports();
await import(${JSON.stringify(pathToFileURL(CLI).href)});`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', hold, 'cpmx', 'build', '--source', write('newer.txt', synthetic), '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = createInterface({ input: child.stdout! });
    for await (const line of lines) if (line === 'at fsync') break;
    const temporary = `${out}.${child.pid}.tmp`;
    expect(readdirSync(folder).sort()).toEqual(['cpmx.msgpack', `cpmx.msgpack.${child.pid}.tmp`]);
    expect(statSync(temporary).size).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await once(child, 'exit');

    expect(readFileSync(out).equals(before)).toBe(true);
    expect(existsSync(temporary)).toBe(true);
    expect(contentOf(await built(write('again.txt', synthetic), { out }))).toEqual(syntheticReference);
    expect(readdirSync(folder)).toEqual(['cpmx.msgpack']);
  });

  it('leaves alone the temporary file of a process that is still running', async () => {
    const folder = join(dir, 'alive');
    mkdirSync(folder);
    const alive = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    try {
      const theirs = join(folder, `cpmx.msgpack.${alive.pid}.tmp`);
      writeFileSync(theirs, 'in progress');
      await built(FIXTURE, { out: join(folder, 'cpmx.msgpack') });
      expect(readdirSync(folder).sort()).toEqual(['cpmx.msgpack', `cpmx.msgpack.${alive.pid}.tmp`]);
    } finally {
      alive.kill('SIGKILL');
    }
  });
});

/** The CLI in a child; with measureMemory, its peak resident memory too. */
function runCli(args: string[], options: { input?: Uint8Array; measureMemory?: boolean } = {}) {
  const measure = `process.on('exit', () => process.stderr.write('maxRSS ' + process.resourceUsage().maxRSS + '\\n'));
await import(${JSON.stringify(pathToFileURL(CLI).href)});`;
  const argv = options.measureMemory ? ['--input-type=module', '-e', measure, 'cpmx', ...args] : [CLI, ...args];
  const result = spawnSync(process.execPath, argv, { input: options.input ?? '', encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const rss = /maxRSS (\d+)/.exec(result.stderr)?.[1];
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, maxRssBytes: rss === undefined ? Number.NaN : Number(rss) * 1024 };
}
