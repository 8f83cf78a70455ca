/**
 * Where the artifact comes from: bytes given by the app (the path every runtime can take), a
 * file URL, and the package's own file, which every build of the library (ES module, CommonJS,
 * the command line) finds in the same place.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { dataDirectory } from '../../build/locations.js';
import { bytesSource } from '../../src/client/bytes-source.js';
import { ArtifactError, createClient, createFetchHandler } from '../../src/index.js';
import { defaultArtifactPath } from '../../src/paths.js';
import { CLI, FIXTURE, buildInto, ok, root, tempDir } from '../helpers.js';

const dir = tempDir();
let dataPath: string;
let bytes: Buffer;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
  bytes = readFileSync(dataPath);
});

describe('createClient({ data })', () => {
  it('answers from a Uint8Array, an ArrayBuffer and a Buffer exactly as from the file', () => {
    const fromFile = createClient({ token: 'demo', dataPath });
    const copy = new Uint8Array(bytes);
    const arrayBuffer = copy.buffer.slice(0);
    for (const data of [copy, arrayBuffer, bytes]) {
      const client = createClient({ token: 'demo', data });
      expect(client.infoCp('09810')).toEqual(fromFile.infoCp('09810'));
      expect(client.searchCp('0')).toEqual(fromFile.searchCp('0'));
      expect(client.query('/query/get_municipio_por_estado/cdmx?token=demo')).toEqual(fromFile.query('/query/get_municipio_por_estado/cdmx?token=demo'));
      expect(client.dataPath).toBe('the artifact given as data');
    }
  });

  it('answers from bytes that start anywhere in their buffer, a Buffer or a Uint8Array (a slice of a larger download)', () => {
    const fromFile = createClient({ token: 'demo', dataPath });
    for (const offset of [1, 2, 3, 5]) {
      const larger = Buffer.alloc(bytes.length + offset);
      bytes.copy(larger, offset);
      for (const data of [larger.subarray(offset), new Uint8Array(larger.buffer, larger.byteOffset + offset, bytes.length)]) {
        const client = createClient({ token: 'demo', data });
        expect(client.infoCp('09810'), `${data.constructor.name} at ${offset}`).toEqual(fromFile.infoCp('09810'));
        expect(client.searchCp('0')).toEqual(fromFile.searchCp('0'));
      }
    }
  });

  it('decodes the same bytes once for every client and handler given them', () => {
    const data = new Uint8Array(bytes);
    createClient({ token: 'demo', data });
    createFetchHandler({ data });
    expect(bytesSource(data).loaded()).toBeDefined();
    expect(bytesSource(data).get()).toBe(bytesSource(data).loaded());
    expect(bytesSource(new Uint8Array(bytes)).loaded()).toBeUndefined();
  });

  it('says what is wrong with what it was given', () => {
    expect(() => createClient({ data: dataPath as unknown as Uint8Array })).toThrow(/data must be the artifact's bytes \(a Uint8Array or an ArrayBuffer\), got string; a file's path goes in dataPath/);
    expect(() => createClient({ data: [1, 2] as unknown as Uint8Array })).toThrow(/got Array/);
    expect(() => createClient({ data: bytes, dataPath })).toThrow(/give the artifact as data or as dataPath, not both/);
    const cut = bytes.subarray(0, 1000);
    expect(() => createClient({ token: 'demo', data: cut })).toThrow(ArtifactError);
    expect(() => createClient({ token: 'demo', data: cut })).toThrow(/^the artifact given as data: is truncated or not a cpmx artifact; run `cpmx build`/);
    // Test mode reads nothing, so bad bytes do not stop it.
    expect(ok(createClient({ token: 'pruebas', data: cut }).getEstados()).response.estado).toHaveLength(32);
  });

  it('takes a file: URL as dataPath', () => {
    const client = createClient({ token: 'demo', dataPath: pathToFileURL(dataPath) });
    expect(client.dataPath).toBe(dataPath);
    expect(ok(client.searchCp('098')).response.cp).toEqual(['09810', '09819']);
  });
});

describe('the web build (dist/cpmx.web.js)', () => {
  it('answers from bytes, serves test mode without them, and says to give bytes for real data', async () => {
    const web = (await import(join(root, 'dist', 'cpmx.web.js'))) as typeof import('../../src/index.js');
    const client = web.createClient({ token: 'demo', data: new Uint8Array(bytes) });
    expect(client.infoCp('09810', { type: 'simplified' })).toEqual(createClient({ token: 'demo', dataPath }).infoCp('09810', { type: 'simplified' }));
    expect(ok(web.createClient({ token: 'pruebas' }).searchCp('0')).response.cp.length).toBeGreaterThan(0);
    expect(() => web.createClient({ token: 'demo' })).toThrow(/no artifact: this build reads no files, so pass the artifact's bytes as data .*correosdemexico\.gob\.mx/);
    expect(() => web.createClient({ token: 'demo', dataPath })).toThrow(/this build reads no files/);
    const health = await (await web.createFetchHandler()(new Request('http://cpmx.test/health'))).json();
    expect(health).toMatchObject({ loaded: false, artifact: 'the artifact given as data', error: expect.stringMatching(/pass the artifact's bytes as data/) });
    const real = await web.createFetchHandler()(new Request('http://cpmx.test/query/info_cp/09810?token=demo'));
    expect(real.status).toBe(503);
    expect(((await real.json()) as { error_message: string }).error_message).toMatch(/pass the artifact's bytes as data/);
    expect((await web.createFetchHandler()(new Request('http://cpmx.test/query/info_cp/09810?token=pruebas'))).status).toBe(200);
  });

  it('imports nothing from Node', () => {
    const text = readFileSync(join(root, 'dist', 'cpmx.web.js'), 'utf8');
    expect(text).not.toMatch(/["']node:|\brequire\(/);
    expect(text).not.toMatch(/\bprocess\.env/);
  });
});

describe('the package’s own artifact', () => {
  const expected = join(root, 'data', 'cpmx.msgpack');
  const env = { ...process.env, CPMX_DATA: '' };

  it('is where cpmx build writes, for the sources, the ES and CommonJS bundles and the command line', () => {
    expect(defaultArtifactPath()).toBe(expected);
    expect(join(dataDirectory, 'cpmx.msgpack')).toBe(expected);
    const esm = execFileSync(process.execPath, ['--input-type=module', '-e', `import { createClient } from ${JSON.stringify(pathToFileURL(join(root, 'dist', 'cpmx.js')).href)}; console.log(createClient().dataPath)`], { encoding: 'utf8', env });
    const cjs = execFileSync(process.execPath, ['-e', `console.log(require(${JSON.stringify(join(root, 'dist', 'cpmx.cjs'))}).createClient().dataPath)`], { encoding: 'utf8', env });
    const cli = JSON.parse(execFileSync(process.execPath, [CLI, 'status'], { encoding: 'utf8', env })) as { artifact: string };
    expect([esm.trim(), cjs.trim(), cli.artifact]).toEqual([expected, expected, expected]);
  });

  it('is named by a literal URL in every ES bundle, each directly in dist/ where that URL holds', () => {
    const dist = join(root, 'dist');
    const files = execFileSync('grep', ['-l', '-r', '--include=*.js', 'new URL("../data/cpmx.msgpack", import.meta.url)', dist], { encoding: 'utf8' }).trim().split('\n');
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) expect(join(file, '..')).toBe(dist);
  });
});
