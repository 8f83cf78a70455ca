/**
 * One contract suite run against every entry the package ships, as tldts runs one suite
 * against every build: `cpmx` as ES module (dist/cpmx.js), as CommonJS (dist/cpmx.cjs), as app
 * bundlers get it (dist/cpmx.bundlers.js) and as the build for browsers and workers
 * (dist/cpmx.web.js, the artifact given as bytes);
 * `cpmx/validate` as ES module and CommonJS (dist/validate.js, .cjs), each with a client from
 * the `cpmx` of its own kind and from the other; and `cpmx/web` (dist/web.js) over an exported
 * tree. Every public function of an entry is called through that entry and must answer as the
 * source does (src/, the reference). Each bundle carries its own copy of the modules it
 * inlines, so a function that recognises a client by identity (a WeakMap, instanceof) fails
 * here, by entry.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { staticServer } from '../../bench/static-server.js';
import * as source from '../../src/index.js';
import * as sourceValidate from '../../src/validate/index.js';
import { FIXTURE, buildInto, root, tempDir } from '../helpers.js';
import { listen } from '../support/http.js';
import { exampleArgs, methods, rowOf, withToken } from '../support/method-examples.js';
import { exportWeb } from '../support/web.js';

type Lib = typeof source;
type Validate = typeof sourceValidate;
type WebEntry = typeof import('../../src/web/index.js');

const dist = join(root, 'dist');
const require = createRequire(import.meta.url);
const importDist = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(dist, file)).href)) as T;

/**
 * A body with 113's geodata detail cut after its stem: the detail says where the geodata was
 * looked for (a file beside the artifact, bytes given, a web tree exported without it), which
 * differs by door by design; everything else must be the source's to the byte.
 */
function sansGeoDetail<T>(body: T): T {
  return JSON.parse(JSON.stringify(body).replace(/(no tiene datos geográficos; constrúyalo con `cpmx build --geo FILE\.\.\.`)[^"]*/g, '$1')) as T;
}

const dir = tempDir();
let dataPath: string;
let reference: source.CpmxClient;
/** The reference of the HTTP handlers, which have no default token: a path without one is 106. */
let tokenless: source.CpmxClient;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
  reference = source.createClient({ token: 'demo', dataPath });
  tokenless = source.createClient({ dataPath });
});


/** Paths beside the examples: errors of every kind, test mode, a path without a token. */
const EXTRA_PATHS = [
  '/query/info_cp/09810?token=demo&type=simplified',
  '/query/info_cp/0981?token=demo',
  '/query/info_cp/99999?token=demo',
  '/query/info_cp/09810?token=demo&type=x',
  '/query/info_cp/09810?token=pruebas',
  '/query/info_cp/09810',
  '/query/nothing/1?token=demo',
  '/query/info_localidad/1?token=demo',
  '/query/get_cp_por_municipio/Nowhere?token=demo',
  '/query/search_cp_advanced/cdmx?token=demo&limit=0',
];
const paths = () => [...methods.map((method) => withToken(method, 'demo')), ...EXTRA_PATHS];

/** A client's typed methods by name. */
const typed = (client: object) => client as Record<string, (...args: unknown[]) => unknown>;

/** The suite of the `cpmx` entry: every public function through `load()`'s module. */
function libraryContract(name: string, load: () => Promise<Lib>, clientOf: (lib: Lib) => source.CpmxClient) {
  describe(`cpmx through ${name}`, () => {
    let lib: Lib;
    let client: source.CpmxClient;
    beforeAll(async () => {
      lib = await load();
      client = clientOf(lib);
    });

    it('exports what the source exports', () => {
      expect(Object.keys(lib).sort()).toEqual(Object.keys(source).sort());
      expect(lib.ERRORS).toEqual(source.ERRORS);
      expect(lib.TEST_TOKEN).toBe(source.TEST_TOKEN);
    });

    it('createClient: every typed lookup and query(path) answer as the source', () => {
      for (const method of methods) {
        const { client: clientName } = rowOf(method);
        if (clientName) expect(sansGeoDetail(typed(client)[clientName]!(...exampleArgs(method))), method).toEqual(sansGeoDetail(typed(reference)[clientName]!(...exampleArgs(method))));
      }
      for (const path of paths()) expect(sansGeoDetail(client.query(path)), path).toEqual(sansGeoDetail(reference.query(path)));
      expect(client.catalogInfo()).toEqual(reference.catalogInfo());
      expect(client.codeHistory('09810')).toEqual(reference.codeHistory('09810'));
    });

    it('isSuccess reads bodies as the source does', () => {
      for (const path of paths()) {
        const { body } = reference.query(path);
        expect(lib.isSuccess(body), path).toBe(source.isSuccess(body));
      }
    });

    it('createFetchHandler answers every path with the source’s status and body', async () => {
      const handler = lib.createFetchHandler(name.includes('web') ? { data: readFileSync(dataPath) } : { dataPath });
      for (const path of paths()) {
        const response = await handler(new Request(`http://cpmx.test${path}`));
        const expected = tokenless.query(path);
        expect(response.status, path).toBe(expected.status);
        expect(sansGeoDetail(await response.json()), path).toEqual(sansGeoDetail(expected.body));
      }
    });

    it('createMiddleware answers over node:http with the source’s status and body', async () => {
      const middleware = lib.createMiddleware(name.includes('web') ? { data: readFileSync(dataPath) } : { dataPath });
      const { url, close } = await listen((request, response) => middleware(request, response, () => response.writeHead(404).end()));
      try {
        for (const path of paths()) {
          const response = await fetch(url + path);
          const expected = tokenless.query(path);
          expect(response.status, path).toBe(expected.status);
          expect(sansGeoDetail(await response.json()), path).toEqual(sansGeoDetail(expected.body));
        }
      } finally {
        await close();
      }
    });

    it('throws its own ArtifactError for an artifact it cannot read', () => {
      const attempt = () => (name.includes('web') ? lib.createClient({ token: 'demo' }) : lib.createClient({ token: 'demo', dataPath: join(dir, 'missing.msgpack') }));
      expect(attempt).toThrow(lib.ArtifactError);
      expect(attempt).toThrow(/cpmx build/);
    });
  });
}

libraryContract('dist/cpmx.js (ES module)', () => importDist<Lib>('cpmx.js'), (lib) => lib.createClient({ token: 'demo', dataPath }));
libraryContract('dist/cpmx.bundlers.js (what app bundlers get, package.json `module`)', () => importDist<Lib>('cpmx.bundlers.js'), (lib) => lib.createClient({ token: 'demo', dataPath }));
libraryContract('dist/cpmx.cjs (CommonJS)', async () => require(join(dist, 'cpmx.cjs')) as Lib, (lib) => lib.createClient({ token: 'demo', dataPath }));
libraryContract('dist/cpmx.web.js (browsers and workers)', () => importDist<Lib>('cpmx.web.js'), (lib) => lib.createClient({ token: 'demo', data: readFileSync(dataPath) }));

/** Records and lines of every kind the validator and the parser read (the fixture's codes). */
const RECORDS: sourceValidate.AddressRecord[] = [
  { cp: '09810', colonia: 'Granjas Esmeralda', municipio: 'Iztapalapa', estado: 'Ciudad de México' },
  { cp: '09810', colonia: 'granjas  esmeralda', municipio: 'IZTAPALAPA', estado: 'cdmx' },
  { cp: '1000' },
  { cp: '09819', colonia: 'Granjas Esmeralda' },
  { cp: '99999', estado: 'Jalisco' },
  { colonia: 'Tepexpan', municipio: 'Acolman', estado: 'Edomex' },
];
const LINES = ['Granjas Esmeralda, Iztapalapa, CDMX 09810', 'Col. Del Valle Centro, Benito Juárez, Ciudad de México, C.P. 03100', 'Tepexpan, Acolman, Estado de México', 'Calle 5 #12, Morelia, Mich.', ''];

/** The suite of `cpmx/validate`: every public function through `load()`'s module, with a client of `lib`. */
function validateContract(name: string, load: () => Promise<Validate>, loadLib: () => Promise<Lib>) {
  describe(`cpmx/validate through ${name}`, () => {
    let validate: Validate;
    let client: source.CpmxClient;
    beforeAll(async () => {
      validate = await load();
      client = (await loadLib()).createClient({ token: 'demo', dataPath });
    });

    it('exports what the source exports, the same constants', () => {
      expect(Object.keys(validate).sort()).toEqual(Object.keys(sourceValidate).sort());
      const constants = (v: Validate) => [v.ADDRESS_PARTS, v.COLUMN_NAMES, v.ENCODINGS, v.FIELDS, v.MAX_CODES, v.SUGGESTION_THRESHOLD, v.VALIDATION_ERRORS];
      expect(constants(validate)).toEqual(constants(sourceValidate));
      expect(validate.foldForMatch('  Ciudad de MÉXICO ')).toBe(sourceValidate.foldForMatch('  Ciudad de MÉXICO '));
    });

    it('validateAddress judges every record as the source does', () => {
      for (const record of RECORDS) expect(validate.validateAddress(client, record), JSON.stringify(record)).toEqual(sourceValidate.validateAddress(reference, record));
    });

    // A client of another bundle: its catalog is found by a Symbol.for key, not by identity (issue 33).
    it('parseAddress reads every line as the source does', () => {
      for (const line of LINES) expect(validate.parseAddress(client, line), line).toEqual(sourceValidate.parseAddress(reference, line));
    });

    it('validateStream judges a CSV as the source does, and its errors are its own classes', async () => {
      const csv = `codigo_postal,colonia,municipio,estado\n${RECORDS.map((r) => [r.cp ?? '', r.colonia ?? '', r.municipio ?? '', r.estado ?? ''].join(',')).join('\n')}\n`;
      const run = async (v: Validate, c: source.CpmxClient) => {
        const out: unknown[] = [];
        for await (const line of v.validateStream(c, [Buffer.from(csv)], { format: 'csv' })) out.push(line);
        return out;
      };
      expect(await run(validate, client)).toEqual(await run(sourceValidate, reference));
      const bad = validate.validateStream(client, [Buffer.from([0x63, 0x70, 0x0a, 0x41, 0xc3, 0x28, 0x0a])], { format: 'csv', encoding: 'utf-8' });
      await expect(bad.next()).rejects.toBeInstanceOf(validate.EncodingError);
      const headless = validate.validateStream(client, [Buffer.from('nombre,calle\nx,y\n')], { format: 'csv' });
      await expect(headless.next()).rejects.toBeInstanceOf(validate.InputError);
    });
  });
}

const esmLib = () => importDist<Lib>('cpmx.js');
const cjsLib = async () => require(join(dist, 'cpmx.cjs')) as Lib;
validateContract('dist/validate.js (ES module), a client of dist/cpmx.js', () => importDist<Validate>('validate.js'), esmLib);
validateContract('dist/validate.cjs (CommonJS), a client of dist/cpmx.cjs', async () => require(join(dist, 'validate.cjs')) as Validate, cjsLib);
validateContract('dist/validate.js (ES module), a client of dist/cpmx.cjs', () => importDist<Validate>('validate.js'), cjsLib);

describe('cpmx/web through dist/web.js, over an exported tree', () => {
  let web: WebEntry;
  let client: ReturnType<WebEntry['createWebClient']>;
  let base: string;
  beforeAll(async () => {
    const tree = join(dir, 'tree');
    expect(exportWeb(dataPath, tree).status).toBe(0);
    base = `${(await listen(staticServer({ '/tree/': tree }))).url}/tree/`;
    web = await importDist<WebEntry>('web.js');
    client = web.createWebClient({ base, token: 'demo' });
  });

  it('exports what the source exports', async () => {
    expect(Object.keys(web).sort()).toEqual(Object.keys(await import('../../src/web/index.js')).sort());
    expect(web.ERRORS).toEqual(source.ERRORS);
    expect(web.TEST_TOKEN).toBe(source.TEST_TOKEN);
    for (const path of paths()) expect(web.isSuccess(reference.query(path).body), path).toBe(source.isSuccess(reference.query(path).body));
  });

  it('createWebClient: every typed lookup answers as the source’s client, and test mode too', async () => {
    for (const method of methods) {
      const { client: clientName } = rowOf(method);
      if (!clientName) continue;
      expect(JSON.stringify(sansGeoDetail(await typed(client)[clientName]!(...exampleArgs(method)))), method).toBe(JSON.stringify(sansGeoDetail(typed(reference)[clientName]!(...exampleArgs(method)))));
    }
    const test = web.createWebClient({ base, token: 'pruebas' });
    expect(await test.infoCp('09810')).toEqual(source.createClient({ token: 'pruebas' }).infoCp('09810'));
  });

  it('prefetch, manifest and refresh work, and a tree that is not there is a WebTreeError', async () => {
    await client.prefetch('Ciudad de México');
    expect((await client.manifest()).digits).toBeTypeOf('object');
    client.refresh();
    expect(client.bytesReceived).toBeGreaterThan(0);
    const missing = web.createWebClient({ base: `${base}missing/`, token: 'demo' });
    await expect(missing.infoCp('09810')).rejects.toBeInstanceOf(web.WebTreeError);
    expect(() => web.createWebClient({ base: '' })).toThrow(TypeError);
  });
});
