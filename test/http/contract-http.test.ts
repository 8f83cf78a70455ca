/**
 * Contract version 2 over HTTP, against `cpmx serve` started as users start it: the new
 * paths with their statuses, 501 for 113, the Bearer header, --default-token, ETag, HEAD and
 * 304 on the new paths, CORS, and credits with a registry.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, ERRORS } from '../../src/index.js';
import { CLI, FIXTURE, buildInto, tempDir } from '../helpers.js';
import { startServe, type Served } from '../support/serve.js';

const dir = tempDir();
let dataPath: string;
let plain: Served;
let withDefault: Served;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
  [plain, withDefault] = await Promise.all([startServe(['--data', dataPath]), startServe(['--data', dataPath, '--default-token', 'demo'])]);
});

const get = (served: Served, path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(served.url + path, { headers, method });

describe('the new paths', () => {
  it('answer with the router’s body and the contract’s status, 501 for 113, with CORS', async () => {
    const client = createClient({ dataPath });
    const paths = [
      '/query/get_colonia_por_cp/09810?token=demo',
      '/query/get_cp_por_estado/Quintana+Roo?token=demo',
      '/query/get_cp_por_municipio/Benito+Ju%C3%A1rez?token=demo',
      '/query/get_cp_por_municipio/Benito+Ju%C3%A1rez?token=demo&estado=cdmx',
      '/query/get_colonia_por_municipio/Iztapalapa?token=demo',
      '/query/get_colonia_por_estado_municipio?estado=Edomex&municipio=Acolman&token=demo',
      '/query/search_cp_advanced/cdmx?token=demo&colonia=los&limit=1',
      '/query/get_cp_advanced/cdmx?token=demo&municipio=Iztapalapa',
      '/query/get_estado_clave?token=demo',
      '/query/get_municipio_clave_por_estado/cdmx?token=pruebas',
      '/query/get_municipio_clave_por_clave_estado/9?token=demo',
      '/query/getCitiesByStateCode/15?token=demo',
      '/query/cuenta/consultas_disponibles?token=demo',
      '/query/info_localidad/09810',
      // Without geodata the geocoding methods answer 113 saying what to build, the server as the library.
      '/query/info_cp_geocoding/09810?token=demo',
      '/query/info_cp_geocoding_reverse?lat=19.4&lng=-99.1&token=demo',
      '/query/info_cp_geocoding_reverse?lat=x&lng=-99.1&token=demo',
      '/query/get_vialidad/a/b?token=demo',
      '/query/get_cp_por_municipio?token=demo',
      '/query/get_cp_por_municipio/Nowhere?token=demo',
      '/query/getCitiesByStateCode/abc?token=demo',
      '/query/search_cp_advanced/cdmx?token=demo&limit=0',
    ];
    const seen = new Set<number>();
    for (const path of paths) {
      const response = await get(plain, path, { Origin: 'https://shop.example' });
      const expected = client.query(path);
      expect(response.status, path).toBe(expected.status);
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(await response.json(), path).toEqual(expected.body);
      const code = (expected.body as { code_error: number }).code_error;
      if (code) seen.add(code);
    }
    expect([...seen].sort()).toEqual([113, 114, 115, 116, 117, 146]);
    expect((await get(plain, '/query/get_tipo_vialidad')).status).toBe(501);
  });
});

describe('tokens over HTTP', () => {
  it('reads Authorization: Bearer when the query has no token (or an empty one); the query wins', async () => {
    const real = await (await get(plain, '/query/get_estados?token=demo')).json();
    const test = await (await get(plain, '/query/get_estados?token=pruebas')).json();
    expect(await (await get(plain, '/query/get_estados', { Authorization: 'Bearer demo' })).json()).toEqual(real);
    expect(await (await get(plain, '/query/get_estados?token=', { Authorization: 'Bearer demo' })).json()).toEqual(real);
    expect(await (await get(plain, '/query/get_estados', { Authorization: 'bearer   pruebas ' })).json()).toEqual(test);
    expect(await (await get(plain, '/query/get_estados?token=pruebas', { Authorization: 'Bearer demo' })).json()).toEqual(test);
    for (const authorization of ['Basic ZGVtbzo=', 'Bearer', 'Bearer ', 'demo']) {
      const response = await get(plain, '/query/get_estados', { Authorization: authorization });
      expect(response.status, authorization).toBe(401);
      expect(await response.json()).toEqual({ error: true, code_error: 106, error_message: ERRORS[106][0], response: null });
    }
  });

  it('takes --default-token for requests with neither; a Bearer header or the query wins over it', async () => {
    expect((await get(plain, '/query/getCitiesByStateCode/15')).status).toBe(401);
    const response = await get(withDefault, '/query/getCitiesByStateCode/15');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(createClient({ token: 'demo', dataPath }).getCitiesByStateCode('15'));
    const test = await (await get(withDefault, '/query/getCitiesByStateCode/15?token=pruebas')).json();
    expect((test as { response: { ciudad: string[] } }).response.ciudad[0]).toMatch(/prueba/);
    expect(await (await get(withDefault, '/query/getCitiesByStateCode/15', { Authorization: 'Bearer pruebas' })).json()).toEqual(test);
    expect(await (await get(withDefault, '/query/getCitiesByStateCode/15?token=')).json()).toEqual(await (await get(withDefault, '/query/getCitiesByStateCode/15')).json());
  });
});

describe('caching on the new paths', () => {
  it('gives each real answer an ETag naming every parameter; If-None-Match answers 304, HEAD no body', async () => {
    const etagOf = async (path: string) => (await get(plain, path)).headers.get('etag');
    const base = '/query/search_cp_advanced/cdmx?token=demo';
    const variants = [base, `${base}&municipio=Iztapalapa`, `${base}&colonia=los`, `${base}&colonia=lo`, `${base}&limit=1`, '/query/get_cp_advanced/cdmx?token=demo'];
    const tags = await Promise.all(variants.map(etagOf));
    for (const tag of tags) expect(tag).toMatch(/^"[^"\s]+"$/);
    expect(new Set(tags).size).toBe(variants.length);
    const byState = await Promise.all(['', '&estado=cdmx', '&estado=Quintana+Roo'].map((e) => etagOf(`/query/get_cp_por_municipio/Benito+Juarez?token=demo${e}`)));
    expect(new Set(byState).size).toBe(3);
    expect(await etagOf('/query/get_colonia_por_cp/09810?token=demo')).not.toBe(await etagOf('/query/info_cp/09810?token=demo&type=simplified'));

    const path = '/query/get_colonia_por_estado_municipio?estado=cdmx&municipio=Iztapalapa&token=demo';
    const first = await get(plain, path);
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400');
    const cached = await get(plain, path, { 'If-None-Match': etag });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');
    const head = await get(plain, path, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(head.headers.get('content-length')).toBe(first.headers.get('content-length'));
    expect(await head.text()).toBe('');
    // Not cacheable: test mode, errors, 113 and the credit count, which changes.
    for (const uncached of ['/query/get_estado_clave?token=pruebas', '/query/get_cp_por_municipio/Nowhere?token=demo', '/query/info_localidad/1', '/query/cuenta/consultas_disponibles?token=demo']) {
      expect((await get(plain, uncached)).headers.get('etag'), uncached).toBeNull();
    }
  });
});

describe('credits over HTTP', () => {
  it('every method costs one credit, HEAD and 304 none, consultas_disponibles none; the count reads 0 after 108', async () => {
    const registry = join(dir, 'tokens.db');
    const token = execFileSync(process.execPath, [CLI, 'tokens', 'create', '--registry', registry, '--name', 'Métodos', '--credits', '4'], { encoding: 'utf8' }).trim();
    const served = await startServe(['--data', dataPath, '--registry', registry]);
    const count = async (headers: Record<string, string> = {}, query = `?token=${token}`) =>
      ((await (await get(served, `/query/cuenta/consultas_disponibles${query}`, headers)).json()) as { response: { consultas_disponibles: number } }).response.consultas_disponibles;
    expect(await count()).toBe(4);
    expect(await count()).toBe(4);
    expect(await count({ Authorization: `Bearer ${token}` }, '')).toBe(4);
    expect((await get(served, `/query/get_cp_por_estado/cdmx?token=${token}`)).status).toBe(200);
    expect(await count()).toBe(3);
    const path = `/query/getCitiesByStateCode/15?token=${token}`;
    const etag = (await get(served, path)).headers.get('etag')!;
    expect(await count()).toBe(2);
    expect((await get(served, path, { 'If-None-Match': etag })).status).toBe(304);
    expect((await get(served, path, {}, 'HEAD')).status).toBe(200);
    expect((await get(served, `/query/search_cp_advanced/cdmx?token=${token}&limit=0`)).status).toBe(400);
    expect((await get(served, `/query/get_vialidad?token=${token}`)).status).toBe(501);
    expect(await count()).toBe(2);
    expect((await get(served, '/query/get_estado_clave', { Authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await get(served, `/query/get_colonia_por_municipio/Acolman?token=${token}`)).status).toBe(200);
    const spent = await get(served, `/query/get_colonia_por_municipio/Acolman?token=${token}`);
    expect(spent.status).toBe(402);
    expect(await spent.json()).toEqual({ error: true, code_error: 108, error_message: ERRORS[108][0], response: null });
    expect((await get(served, path, { 'If-None-Match': etag })).status).toBe(402);
    expect(await count()).toBe(0);
    const stranger = await get(served, '/query/cuenta/consultas_disponibles', { Authorization: 'Bearer stranger' });
    expect(stranger.status).toBe(401);
    expect(((await stranger.json()) as { code_error: number }).code_error).toBe(107);
    expect(await served.stop()).toBe(0);
  });
});
