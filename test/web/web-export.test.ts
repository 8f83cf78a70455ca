/**
 * `cpmx export web DIR` and cpmx/web outside a browser: the tree as written (every hash is its
 * file's, the counts are the catalog's), a folder of the user's never replaced, a re-export
 * swapped in whole; the web client over real HTTP, with Node's fetch and in a context that has
 * only what an edge runtime has (no `window`, no `process`, no `require`), answering every
 * method with the Node client's body, byte for byte, and refusing missing, stale and damaged
 * trees with errors that say so.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { staticServer } from '../../bench/static-server.js';
import { crc32 } from '../../src/core/crc32.js';
import { createClient, type CpmxClient } from '../../src/index.js';
import type { WebClient } from '../../src/web/index.js';
import { FIXTURE, buildInto, ok, realCatalogPath, root, tempDir } from '../helpers.js';
import { listen } from '../support/http.js';
import { callOn, exportWeb, methodCalls, type Call } from '../support/web.js';

const dir = tempDir();
const tree = join(dir, 'tree');
/** The fixture's tree, small enough to copy and change for each refusal. */
const miniTree = join(dir, 'mini-tree');
let artifact: string;
let miniArtifact: string;
let node: CpmxClient;
let mini: CpmxClient;
/** The fixture without the code 11000: a catalog that changed. */
let changed: CpmxClient;
let site: string;
/** The compiled cpmx/web, as a package's user imports it. */
let web: typeof import('../../src/web/index.js');

beforeAll(async () => {
  artifact = await buildInto(realCatalogPath(), dir);
  node = createClient({ token: 'demo', dataPath: artifact });
  const exported = exportWeb(artifact, tree);
  expect(exported.stderr).toBe('');
  expect(exported.status).toBe(0);
  miniArtifact = await buildInto(FIXTURE, dir, 'mini.msgpack');
  mini = createClient({ token: 'demo', dataPath: miniArtifact });
  const changedText = join(dir, 'changed.txt');
  writeFileSync(changedText, readFileSync(FIXTURE, 'latin1').split('\n').filter((line) => !line.startsWith('11000|')).join('\n'), 'latin1');
  changed = createClient({ token: 'demo', dataPath: await buildInto(changedText, dir, 'changed.msgpack') });
  expect(exportWeb(miniArtifact, miniTree).status).toBe(0);
  mkdirSync(join(dir, 'empty'));
  site = (await listen(staticServer({ '/tree/': tree, '/sites/': dir }))).url;
  web = await import(join(root, 'dist', 'web.js'));
});

describe('cpmx export web', () => {
  it('writes a manifest of the catalog and files whose names are their CRC-32', () => {
    const manifest = JSON.parse(readFileSync(join(tree, 'manifest.json'), 'utf8'));
    const header = node.catalogInfo();
    expect(manifest).toMatchObject({ format: 'cpmx-web', version: 1, catalog: { date: header.source.date, codes: header.codes, states: 32, municipalities: header.municipalities } });
    const all = readdirSync(tree).filter((name) => name !== 'manifest.json');
    const names = all.filter((name) => /\.[0-9a-f]{8}\.json$/.test(name));
    for (const name of names) {
      const hash = /\.([0-9a-f]{8})\.json$/.exec(name)![1];
      expect(crc32(readFileSync(join(tree, name))).toString(16).padStart(8, '0'), name).toBe(hash);
    }
    // The state list, the digits' indexes and the shards also under their direct names, the same bytes as their hashed files.
    const direct = all.filter((name) => !names.includes(name));
    expect(direct.every((name) => /^(e|d\d|c\d{3})\.json$/.test(name))).toBe(true);
    expect(direct.sort()).toEqual(names.filter((name) => /^(e|d\d|c\d{3})\./.test(name)).map((name) => name.replace(/\.[0-9a-f]{8}\.json$/, '.json')).sort());
    for (const name of direct) {
      const hashed = names.find((other) => other.startsWith(name.replace(/json$/, '')))!;
      expect(readFileSync(join(tree, name)).equals(readFileSync(join(tree, hashed))), name).toBe(true);
    }
    const count = (part: string) => names.filter((name) => name.startsWith(part)).length;
    expect([count('e.'), count('s'), count('x'), count('p'), count('m')]).toEqual([1, 32, 32, 32, header.municipalities]);
    expect(count('c')).toBe(new Set(methodCodes()).size);
  });

  it('refuses a folder that holds anything of the user, and writes nothing', () => {
    const users = join(dir, 'users');
    mkdirSync(users);
    writeFileSync(join(users, 'index.html'), '<p>mine</p>');
    const run = exportWeb(artifact, users);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/users is not a previous export \(it holds index\.html\); nothing was written/);
    expect(readdirSync(users)).toEqual(['index.html']);
    expect(readdirSync(dir).filter((name) => name.includes('cpmx-'))).toEqual([]);

    // A previous export with a file of the user's added: refused as well.
    const again = join(dir, 'again');
    cpSync(miniTree, again, { recursive: true });
    writeFileSync(join(again, 'notes.txt'), 'mine');
    expect(exportWeb(artifact, again)).toMatchObject({ status: 1, stderr: expect.stringMatching(/it holds notes\.txt/) });
    expect(readFileSync(join(again, 'notes.txt'), 'utf8')).toBe('mine');

    writeFileSync(join(dir, 'a-file'), 'mine');
    expect(exportWeb(artifact, join(dir, 'a-file'))).toMatchObject({ status: 1, stderr: expect.stringMatching(/exists and is not a folder/) });
    symlinkSync(tree, join(dir, 'link'));
    expect(exportWeb(artifact, join(dir, 'link'))).toMatchObject({ status: 1, stderr: expect.stringMatching(/is a symbolic link/) });
    expect(readFileSync(join(dir, 'a-file'), 'utf8')).toBe('mine');
  });

  it('replaces a previous export whole, and removes what killed runs left beside it', async () => {
    const target = join(dir, 'replaced');
    expect(exportWeb(miniArtifact, target).status).toBe(0);
    const before = readdirSync(target);
    const leftover = join(dir, '.replaced.cpmx-new-999999999');
    mkdirSync(leftover);
    expect(exportWeb(changed.dataPath, target).status).toBe(0);
    const after = readdirSync(target);
    // Files whose content did not change keep their names; the others are gone with the old tree.
    const digitOne = (names: string[]) => names.filter((name) => /^(d1|k1|c110)\./.test(name));
    expect(digitOne(before).length).toBe(5); // d1 and c110 under their hashed and direct names, k1
    expect(digitOne(after)).toEqual([]);
    expect(after.filter((name) => name.startsWith('c098.'))).toEqual(before.filter((name) => name.startsWith('c098.')));
    expect(JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8')).catalog.codes).toBe(changed.catalogInfo().codes);
    expect(existsSync(leftover)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.includes('.cpmx-'))).toEqual([]);
  });

  it('says what it takes when asked wrong', () => {
    expect(exportWeb(artifact, '')).toMatchObject({ status: 2 });
  });
});

function methodCodes(): string[] {
  return [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((digit) => {
    const body = node.searchCp(String(digit));
    return body.error ? [] : body.response.cp.map((cp) => cp.slice(0, 3));
  });
}

/** Every call on both clients; the bodies as JSON text, which must be the same. */
async function compare(client: WebClient, calls: Call[]): Promise<void> {
  for (const call of calls) {
    const expected = JSON.stringify(callOn(node, call));
    expect(JSON.stringify(await callOn(client, call)), JSON.stringify(call)).toBe(expected);
  }
}

describe('cpmx/web over HTTP with Node’s fetch', () => {
  it('answers every method as the Node client does, fetching each file once', async () => {
    const client = web.createWebClient({ base: `${site}/tree/`, token: 'demo' });
    const calls = methodCalls(node, 23);
    await compare(client, calls);
    const received = client.bytesReceived;
    await compare(client, calls.slice(0, 40));
    expect(client.bytesReceived).toBe(received);
  });

  it('answers test mode without any tree, and without a token as the Node client does', async () => {
    const client = web.createWebClient({ base: `${site}/sites/empty/`, token: 'pruebas' });
    const test = createClient({ token: 'pruebas', dataPath: artifact });
    for (const call of [['infoCp', '09810'], ['getEstados'], ['searchCpAdvanced', 'x', { colonia: 'y' }]] as Call[]) {
      expect(JSON.stringify(await callOn(client, call))).toBe(JSON.stringify(callOn(test, call)));
    }
    expect(await client.infoCp('1')).toEqual(test.infoCp('1'));
    expect(client.bytesReceived).toBe(0);
    // Without a token the lookups answer from the tree, as the Node client's do from the artifact.
    const untokened = web.createWebClient({ base: `${site}/tree/` });
    expect(await untokened.infoCp('09810')).toEqual(createClient({ dataPath: artifact }).infoCp('09810'));
  });

  it('shares a file among calls in flight, and an aborted call stops waiting without harming the others', async () => {
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const client = web.createWebClient({ base: `${site}/tree/`, token: 'demo', fetch: counting });
    const controller = new AbortController();
    const aborted = client.infoCp('44100', undefined, { signal: controller.signal }).catch((error: unknown) => error);
    controller.abort();
    const codes = ['44100', '44100', '44130', '44160'];
    const answers = await Promise.all(codes.map((cp) => client.infoCp(cp)));
    expect(await aborted).toMatchObject({ name: 'AbortError' });
    expect(answers).toEqual(codes.map((cp) => node.infoCp(cp)));
    expect(requests).toBe(3); // manifest, the digit's index, the shard
  });

  it('prefetches what a form paints first, so its first answers fetch nothing more', async () => {
    const fetched: string[] = [];
    const recording: typeof fetch = (input, init) => {
      fetched.push(String(input).split('/').pop()!.split('.')[0]!);
      return fetch(input, init);
    };
    const client = web.createWebClient({ base: `${site}/tree/`, fetch: recording });
    await client.prefetch('Jalisco');
    // The state list by its direct name, at once, beside the manifest; then the state's file.
    expect(fetched).toEqual(['e', 'manifest', 's14']);
    // Without a token, as the Node client's.
    expect(await client.getMunicipioPorEstado('Jalisco')).toEqual(createClient({ dataPath: artifact }).getMunicipioPorEstado('Jalisco'));
    const withToken = web.createWebClient({ base: `${site}/tree/`, token: 'demo', fetch: recording });
    await withToken.prefetch();
    expect(await withToken.getEstados()).toEqual(node.getEstados());
    expect(fetched).toEqual(['e', 'manifest', 's14', 'e', 'manifest']);
  });

  it('tries again when the host fails for a moment', async () => {
    let failures = 2;
    const flaky: typeof fetch = (input, init) => (failures-- > 0 ? Promise.resolve(new Response('busy', { status: 503 })) : fetch(input, init));
    const client = web.createWebClient({ base: `${site}/tree/`, token: 'demo', fetch: flaky, retryDelay: 1 });
    expect(await client.getEstados()).toEqual(node.getEstados());
    const down: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    const gone = web.createWebClient({ base: `${site}/tree/`, token: 'demo', fetch: down, retries: 1, retryDelay: 1 });
    await expect(gone.getEstados()).rejects.toMatchObject({ name: 'WebTreeError', problem: 'unreachable', message: expect.stringMatching(/could not be fetched \(fetch failed, after 2 attempts\)/) });
  });
});

describe('cpmx/web refuses a tree it cannot trust', () => {
  /** A copy of the tree, changed by `change`, served under /sites/NAME/. */
  function variant(name: string, change: (copy: string) => void): string {
    const copy = join(dir, name);
    cpSync(miniTree, copy, { recursive: true });
    change(copy);
    return `${site}/sites/${name}/`;
  }
  const shardOf = (copy: string, prefix: string) => readdirSync(copy).find((file) => new RegExp(`^c${prefix}\\.[0-9a-f]{8}\\.json$`).test(file))!;
  /** Changes a file under its hashed name and its direct name alike (a copy of the tree, not links). */
  const bothNames = (copy: string, hashed: string, change: (file: string) => void) => {
    change(join(copy, hashed));
    change(join(copy, hashed.replace(/\.[0-9a-f]{8}\.json$/, '.json')));
  };
  const damage = (file: string) => writeFileSync(file, readFileSync(file, 'utf8').replace('Iztapalapa', 'Iztapalapo'));
  // These trees are the fixture's, copied and changed.

  it('missing: no tree at the address', async () => {
    const client = web.createWebClient({ base: `${site}/sites/empty/`, token: 'demo' });
    await expect(client.infoCp('09810')).rejects.toMatchObject({ problem: 'missing', message: expect.stringMatching(/no web tree at .*\/sites\/empty\/ \(manifest\.json answered 404\): run `cpmx export web DIR`/) });
  });

  it('damaged: a file whose bytes are not the ones its name says, and no answer from it', async () => {
    const base = variant('damaged', (copy) => bothNames(copy, shardOf(copy, '098'), damage));
    const client = web.createWebClient({ base, token: 'demo' });
    await expect(client.infoCp('09810')).rejects.toMatchObject({ problem: 'damaged', message: expect.stringMatching(/c098\.[0-9a-f]{8}\.json is damaged \(CRC-32 [0-9a-f]{8}, not [0-9a-f]{8}\)/) });
    expect(await client.infoCp('11000')).toEqual(mini.infoCp('11000'));
  });

  it('passes over a direct name whose bytes are not the hashed file’s (damaged, or of another export) for the hashed name', async () => {
    const base = variant('direct-damaged', (copy) => {
      damage(join(copy, 'c098.json'));
      // Well-formed, but not what the manifest names: used, it would answer no states.
      writeFileSync(join(copy, 'e.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(copy, 'e.json'), 'utf8')), estado: [] }));
    });
    const client = web.createWebClient({ base, token: 'demo' });
    expect(await client.infoCp('09810')).toEqual(mini.infoCp('09810'));
    expect(await client.getEstados()).toEqual(mini.getEstados());
    // Each of them fetched twice: the direct name, then the hashed one.
    const size = (tree: string, name: string) => readFileSync(join(tree, name)).length;
    const copy = join(dir, 'direct-damaged');
    expect(client.bytesReceived).toBeGreaterThanOrEqual(size(copy, 'c098.json') + size(copy, 'e.json') + size(miniTree, 'c098.json') + size(miniTree, 'e.json'));
  });

  it('stale: a file the manifest names is not there, or the format is another', async () => {
    const missingFile = variant('stale', (copy) => bothNames(copy, shardOf(copy, '098'), (file) => rmSync(file)));
    await expect(web.createWebClient({ base: missingFile, token: 'demo' }).infoCp('09810')).rejects.toMatchObject({
      problem: 'stale',
      message: expect.stringMatching(/is named by the manifest but not on the server/),
    });
    const other = variant('version', (copy) => {
      const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8'));
      writeFileSync(join(copy, 'manifest.json'), JSON.stringify({ ...manifest, version: 99 }));
    });
    await expect(web.createWebClient({ base: other, token: 'demo' }).getEstados()).rejects.toMatchObject({ problem: 'stale', message: expect.stringMatching(/format version 99, this cpmx\/web reads 1/) });
    const foreign = variant('foreign', (copy) => writeFileSync(join(copy, 'manifest.json'), '{"name":"my app"}'));
    await expect(web.createWebClient({ base: foreign, token: 'demo' }).getEstados()).rejects.toMatchObject({ problem: 'missing' });
  });

  it('takes the page a single-page app’s host answers for a missing file as missing, not as damage', async () => {
    const files = new Map<string, string>();
    const spa = await listen((req, res) => {
      const name = (req.url ?? '').split('/').pop()!;
      const path = join(tree, name);
      if (name && existsSync(path) && !files.has(name)) res.writeHead(200, { 'Content-Type': 'application/json' }).end(name.startsWith('c098') ? '' : readFileSync(path));
      else res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>app</title>');
    });
    const client = web.createWebClient({ base: `${spa.url}/`, token: 'demo' });
    expect(await client.infoCp('44100')).toEqual(node.infoCp('44100'));
    const nowhere = web.createWebClient({ base: `${spa.url}/nowhere/`, token: 'demo' });
    files.set('manifest.json', '');
    await expect(nowhere.infoCp('44100')).rejects.toMatchObject({ problem: 'missing' });
  });

  it('says what base it needs outside a page', () => {
    expect(() => web.createWebClient({ base: '/tree/', token: 'demo' })).toThrow(/base "\/tree\/" is not a URL \(outside a page, give an absolute one/);
    expect(() => web.createWebClient({ base: '' })).toThrow(/give `base`/);
  });

  it('reads a tree exported again while it ran from the new manifest on', async () => {
    const base = variant('live', () => {});
    const client = web.createWebClient({ base, token: 'demo' });
    expect(await client.infoCp('11000')).toEqual(mini.infoCp('11000'));
    // The catalog changes: 11000 is gone.
    const next = changed;
    expect(exportWeb(next.dataPath, join(dir, 'live')).status).toBe(0);
    // The old manifest names a file of the digit 1 the new tree has not: the client reads the new tree.
    expect(ok(next.searchCp('1')).response.cp).not.toContain('11000');
    expect(await client.searchCp('1')).toEqual(next.searchCp('1'));
    expect(await client.infoCp('11000')).toEqual(next.infoCp('11000'));
  });
});

describe('cpmx/web in an edge-like runtime', () => {
  it('answers with only web APIs: no window, process, require or Buffer', async () => {
    const bundled = await build({ entryPoints: [join(root, 'dist', 'web.js')], bundle: true, format: 'iife', globalName: 'cpmxWeb', write: false, platform: 'neutral', logLevel: 'error' });
    // What workerd, Deno Deploy and Vercel's edge give a module: fetch and the web's globals.
    const context: Record<string, unknown> = { fetch, Response, Request, Headers, URL, TextDecoder, TextEncoder, AbortController, AbortSignal, DOMException, setTimeout, clearTimeout, console };
    runInNewContext(bundled.outputFiles[0]!.text, context);
    expect(runInNewContext('[typeof window, typeof process, typeof require, typeof Buffer]', context)).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
    const client = (context.cpmxWeb as typeof web).createWebClient({ base: `${site}/tree/`, token: 'demo' });
    await compare(client, methodCalls(node, 7).slice(0, 60));
    // web.js's import() of web-extra.js, bundled as such a runtime's bundler does: a written name, test mode.
    await compare(client, [['getMunicipioPorEstado', 'N.L.'], ['getCpPorMunicipio', 'Alc. Iztapalapa', { estado: 'CDMX' }]]);
    const testing = (context.cpmxWeb as typeof web).createWebClient({ base: `${site}/tree/`, token: 'pruebas' });
    expect(await testing.infoCp('09810')).toEqual(createClient({ token: 'pruebas', dataPath: artifact }).infoCp('09810'));
  });
});
