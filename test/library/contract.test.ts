/**
 * The contract of docs/contract.md, on the fixture catalog: envelopes, key order, every
 * error with its status, list orders, aliases, path rules, test mode and token rules.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient, ERRORS } from '../../src/index.js';
import { errorOf, fixtureClient, ok } from '../helpers.js';
import { memoryRegistry } from '../support/memory-registry.js';

const { dir, dataPath, client } = await fixtureClient();
const q = (path: string) => client.query(path);

describe('info_cp', () => {
  it('answers full mode with one envelope per settlement, in catalog order, keys in order', () => {
    const body = ok(client.infoCp('09810'));
    expect(body.map((e) => e.response.asentamiento)).toEqual(['Granjas Esmeralda', 'Progreso del Sur', 'Chalet "La Cumbre"', 'Minerva', 'Minerva']);
    expect(body.map((e) => e.response.tipo_asentamiento)).toEqual(['Colonia', 'Colonia', 'Condominio', 'Colonia', 'Barrio']);
    for (const envelope of body) {
      expect(Object.keys(envelope)).toEqual(['error', 'code_error', 'error_message', 'response']);
      expect(Object.keys(envelope.response)).toEqual(['cp', 'asentamiento', 'tipo_asentamiento', 'municipio', 'estado', 'ciudad', 'pais']);
      expect(envelope).toMatchObject({ error: false, code_error: 0, error_message: null });
      expect(envelope.response).toMatchObject({ cp: '09810', municipio: 'Iztapalapa', estado: 'Ciudad de México', ciudad: 'Ciudad de México', pais: 'México' });
    }
  });

  it('answers simplified mode with every name (duplicates kept) and the first type', () => {
    const body = ok(client.infoCp('09810', { type: 'simplified' }));
    expect(Object.keys(body.response)).toEqual(['cp', 'asentamiento', 'tipo_asentamiento', 'municipio', 'estado', 'ciudad', 'pais']);
    expect(body.response).toEqual({
      cp: '09810',
      asentamiento: ['Granjas Esmeralda', 'Progreso del Sur', 'Chalet "La Cumbre"', 'Minerva', 'Minerva'],
      tipo_asentamiento: 'Colonia',
      municipio: 'Iztapalapa',
      estado: 'Ciudad de México',
      ciudad: 'Ciudad de México',
      pais: 'México',
    });
  });

  it('trims every field and keeps inner spaces', () => {
    expect(ok(client.infoCp('11000'))[0]!.response.asentamiento).toBe('Lomas  de Chapultepec');
    expect(ok(client.infoCp('50000'))[0]!.response.asentamiento).toBe('Toluca de Lerdo Centro');
    expect(ok(client.infoCp('01010'))[0]!.response.ciudad).toBe('Ciudad de México');
  });

  it('takes the first non-empty city of the code for every element, or ""', () => {
    const mixed = ok(client.infoCp('55810'));
    expect(mixed.map((e) => e.response.ciudad)).toEqual(['Tepexpan', 'Tepexpan']);
    expect(ok(client.infoCp('55800')).map((e) => e.response.ciudad)).toEqual(['', '']);
    expect(ok(client.infoCp('61000', { type: 'simplified' })).response.ciudad).toBe('');
  });

  it('answers the contract errors with their statuses', () => {
    const cases: [string, keyof typeof ERRORS][] = [
      ['/query/info_cp?token=demo', 101],
      ['/query/info_cp/?token=demo', 101],
      ['/query/info_cp/0981?token=demo', 102],
      ['/query/info_cp/098100?token=demo', 102],
      ['/query/info_cp/%20%20%20%20?token=demo', 102],
      ['/query/info_cp/-0981?token=demo', 104],
      ['/query/info_cp/0981a?token=demo', 104],
      ['/query/info_cp/０９８１０?token=demo', 104],
      ['/query/info_cp/99999?token=demo', 105],
      ['/query/info_cp/09810?token=demo&type=full', 112],
      ['/query/info_cp/09810?token=demo&type=Simplified', 112],
      ['/query/info_cp/09810?token=demo&type=%20', 112],
    ];
    for (const [path, code] of cases) {
      expect(q(path), path).toEqual({ status: ERRORS[code][1], body: errorOf(code) });
    }
    const anonymous = createClient({ dataPath });
    for (const path of ['/query/info_cp/09810', '/query/info_cp/09810?token=', '/query/info_cp/09810?token=&token=demo']) {
      expect(anonymous.query(path), path).toEqual({ status: 401, body: errorOf(106) });
    }
  });

  it('takes an empty type as absent (full mode), as every empty optional parameter', () => {
    expect(q('/query/info_cp/09810?token=demo&type=')).toEqual(q('/query/info_cp/09810?token=demo'));
    expect(q('/query/info_cp/09810?token=demo&type=&type=simplified').body).toEqual(client.infoCp('09810'));
  });

  it('counts length in code points: a 5-character code of non-ASCII digits is 104, not 102', () => {
    expect(q('/query/info_cp/%C3%A90981?token=demo').body).toEqual(errorOf(104));
    expect(q('/query/info_cp/😀0981?token=demo').body).toEqual(errorOf(104));
  });

  it('checks the code before the type, and errors stay one envelope in both modes', () => {
    expect(q('/query/info_cp/abc?token=demo&type=bad').body).toEqual(errorOf(102));
    expect(client.infoCp('99999', { type: 'simplified' })).toEqual(errorOf(105));
    expect(client.infoCp('99999')).toEqual(errorOf(105));
  });
});

describe('search_cp', () => {
  it('lists the codes starting with the prefix, ascending, as 5-character strings', () => {
    expect(client.searchCp('0')).toEqual({ error: false, code_error: 0, error_message: null, response: { cp: ['01000', '01010', '03100', '09810', '09819'] } });
    expect(ok(client.searchCp('098')).response.cp).toEqual(['09810', '09819']);
    expect(ok(client.searchCp('5')).response.cp).toEqual(['50000', '55800', '55810', '58000']);
    expect(ok(client.searchCp('09810')).response.cp).toEqual(['09810']);
    expect(ok(client.searchCp('9')).response.cp).toEqual(['91000']);
  });

  it('answers no match as a success with an empty list', () => {
    expect(q('/query/search_cp/4?token=demo')).toEqual({ status: 200, body: { error: false, code_error: 0, error_message: null, response: { cp: [] } } });
    expect(ok(client.searchCp('09811')).response.cp).toEqual([]);
    expect(ok(client.searchCp('0982')).response.cp).toEqual([]);
  });

  it('answers its errors', () => {
    expect(q('/query/search_cp?token=demo').body).toEqual(errorOf(101));
    expect(q('/query/search_cp/123456?token=demo')).toEqual({ status: 400, body: errorOf(102) });
    expect(q('/query/search_cp/12a?token=demo')).toEqual({ status: 400, body: errorOf(104) });
    expect(q('/query/search_cp/-1?token=demo').body).toEqual(errorOf(104));
  });

  it('ignores type on other endpoints', () => {
    expect(q('/query/search_cp/098?token=demo&type=nonsense').status).toBe(200);
    expect(q('/query/get_estados?token=demo&type=nonsense').status).toBe(200);
  });
});

describe('get_estados and get_municipio_por_estado', () => {
  it('lists states by c_estado', () => {
    expect(client.getEstados()).toEqual({
      error: false,
      code_error: 0,
      error_message: null,
      response: { estado: ['Coahuila de Zaragoza', 'Ciudad de México', 'México', 'Michoacán de Ocampo', 'Quintana Roo', 'Veracruz de Ignacio de la Llave'] },
    });
  });

  it('lists a state’s municipalities each once, by c_mnpio', () => {
    expect(ok(client.getMunicipioPorEstado('México')).response.municipios).toEqual(['Acolman', 'Toluca']);
    expect(ok(client.getMunicipioPorEstado('Ciudad de México')).response.municipios).toEqual([
      'Iztapalapa',
      'Álvaro Obregón',
      'Benito Juárez',
      'Miguel Hidalgo',
    ]);
    expect(ok(client.getMunicipioPorEstado('Quintana Roo')).response.municipios).toEqual(['Benito Juárez']);
  });

  it('matches names ignoring case, accents and surrounding spaces, and the aliases', () => {
    const municipios = (estado: string) => client.getMunicipioPorEstado(estado).response?.municipios;
    const cdmx = municipios('Ciudad de México');
    for (const name of ['ciudad de mexico', '  CIUDAD DE MÉXICO ', 'CDMX', 'cdmx', 'Distrito Federal', 'distrito federal']) {
      expect(municipios(name), name).toEqual(cdmx);
    }
    for (const name of ['Estado de México', 'edomex', 'MEXICO']) expect(municipios(name), name).toEqual(['Acolman', 'Toluca']);
    expect(municipios('Coahuila')).toEqual(['Saltillo', 'Torreón']);
    expect(municipios('michoacan')).toEqual(['Morelia', 'Zitácuaro']);
    expect(municipios('Veracruz')).toEqual(['Xalapa']);
    expect(q('/query/get_municipio_por_estado/Estado%20de%20M%C3%A9xico?token=demo').status).toBe(200);
  });

  it('answers 109 and 110', () => {
    expect(q('/query/get_municipio_por_estado?token=demo')).toEqual({ status: 400, body: errorOf(109) });
    expect(q('/query/get_municipio_por_estado/%20%20?token=demo')).toEqual({ status: 400, body: errorOf(109) });
    expect(q('/query/get_municipio_por_estado/Texas?token=demo')).toEqual({ status: 404, body: errorOf(110) });
    expect(q('/query/get_municipio_por_estado/Ciudad%20de%20%20M%C3%A9xico?token=demo').body).toEqual(errorOf(110));
  });
});

describe('paths', () => {
  it('answers 111 for any other path, before the token check', () => {
    for (const path of [
      '/',
      '',
      '/query',
      '/query/',
      '/query/info_cp/09810/extra?token=demo',
      '/query/get_estados/x?token=demo',
      '/query/INFO_CP/09810?token=demo',
      '/api/info_cp/09810?token=demo',
      '/query/unknown',
      '/query//info_cp/09810?token=demo',
    ]) {
      expect(q(path), path).toEqual({ status: 404, body: errorOf(111) });
    }
  });

  it('ignores one trailing slash and unknown parameters', () => {
    expect(q('/query/info_cp/09810/?token=demo&type=simplified&foo=1').body).toEqual(client.infoCp('09810', { type: 'simplified' }));
    expect(q('/query/get_estados/?token=demo').status).toBe(200);
  });

  it('percent-decodes segments as UTF-8; an invalid encoding is taken as written; + is a space, %2B a +', () => {
    expect(q('/query/info_cp/%30%39%38%31%30?token=demo').body).toEqual(client.infoCp('09810'));
    expect(q('/query/info_cp/0981%?token=demo').body).toEqual(errorOf(104));
    expect(q('/query/info_cp/%E0%A4%A?token=demo').body).toEqual(errorOf(102));
    expect(q('/query/info_cp/%E0%A?token=demo').body).toEqual(errorOf(104));
    expect(q('/query/search_cp/+1?token=demo').body).toEqual(errorOf(104));
    expect(q('/query/search_cp/%2B1?token=demo').body).toEqual(errorOf(104));
    expect(q('/query/get_municipio_por_estado/Estado+de+M%C3%A9xico?token=demo').body).toEqual(client.getMunicipioPorEstado('México'));
    expect(q('/query/get_municipio_por_estado/+Quintana+Roo+?token=demo').body).toEqual(client.getMunicipioPorEstado('Quintana Roo'));
    expect(q('/query/get_municipio_por_estado/Quintana%2BRoo?token=demo').body).toEqual(errorOf(110));
    // An invalid encoding is taken as written, its + still a space.
    expect(q('/query/get_municipio_por_estado/Quintana+Roo%?token=demo').body).toEqual(errorOf(110));
    expect(q('/query/get_municipio_por_estado/+++?token=demo').body).toEqual(errorOf(109));
    expect(q('/query/get_municipio_por_estado/Michoac%C3%A1n?token=demo').status).toBe(200);
    expect(q('/query/get_municipio_por_estado/Michoac%E1n?token=demo').body).toEqual(errorOf(110));
  });

  it('reads the token from the query string, the first one winning, decoded', () => {
    expect(q('/query/get_estados?token=pruebas&token=demo').body).toEqual(client.query('/query/get_estados?token=pruebas').body);
    expect(q('/query/get_estados?foo=1&token=%70ruebas').body).toEqual(client.query('/query/get_estados?token=pruebas').body);
  });

  it('accepts a full URL and ignores its origin', () => {
    expect(q('https://api.copomex.com/query/info_cp/09810?token=demo').body).toEqual(client.infoCp('09810'));
  });

  it('gives the typed methods and query the same answers', () => {
    for (const cp of ['09810', '55810', '99999', '0981', 'abcde', '']) {
      expect(client.infoCp(cp)).toEqual(q(`/query/info_cp/${cp}?token=demo`).body);
      expect(client.infoCp(cp, { type: 'simplified' })).toEqual(q(`/query/info_cp/${cp}?token=demo&type=simplified`).body);
      expect(client.searchCp(cp.slice(0, 3))).toEqual(q(`/query/search_cp/${cp.slice(0, 3)}?token=demo`).body);
    }
    expect(client.getMunicipioPorEstado('cdmx')).toEqual(q('/query/get_municipio_por_estado/cdmx?token=demo').body);
  });
});

describe('tokens and test mode', () => {
  it('answers a client without a token from the catalog, as locally any token does; 106 where a registry counts tokens, and for a path without one, as HTTP', () => {
    for (const anonymous of [createClient({ dataPath }), createClient({ token: '', dataPath })]) {
      expect(anonymous.infoCp('09810')).toEqual(client.infoCp('09810'));
      expect(anonymous.getEstados()).toEqual(client.getEstados());
      expect(anonymous.searchCp('0')).toEqual(client.searchCp('0'));
      expect(anonymous.query('/query/get_estados')).toEqual({ status: 401, body: errorOf(106) });
      expect(anonymous.query('/query/get_estados?token=demo').body).toEqual(client.getEstados());
    }
    const counted = createClient({ dataPath, registry: memoryRegistry(new Map([['project', 5]])) });
    expect(counted.infoCp('09810')).toEqual(errorOf(106));
    expect(counted.getEstados()).toEqual(errorOf(106));
  });

  it('loads the artifact when made without a token, so a missing one fails at once, saying what to do', () => {
    expect(() => createClient({ dataPath: join(dir, 'missing.msgpack') })).toThrow(/missing\.msgpack: no artifact here; run `cpmx build`/);
    expect(() => createClient({ token: 'pruebas', dataPath: join(dir, 'missing.msgpack') })).not.toThrow();
  });

  it('answers test mode with fictitious data of the same shapes, without any artifact', () => {
    const test = createClient({ token: 'pruebas', dataPath: '/nonexistent/cpmx.msgpack' });
    const full = ok(test.infoCp('09810'));
    expect(full.length).toBeGreaterThan(0);
    for (const envelope of full) {
      expect(Object.keys(envelope.response)).toEqual(['cp', 'asentamiento', 'tipo_asentamiento', 'municipio', 'estado', 'ciudad', 'pais']);
      expect(envelope.response.cp).toBe('09810');
      expect(envelope.response.asentamiento).toMatch(/prueba/i);
    }
    const simplified = ok(test.infoCp('99999', { type: 'simplified' }));
    expect(simplified.response.asentamiento).toEqual(full.map((e) => e.response.asentamiento));
    expect(ok(test.getEstados()).response.estado).toHaveLength(32);
    expect(ok(test.getMunicipioPorEstado('Texas')).response.municipios.length).toBeGreaterThan(0);
    const search = ok(test.searchCp('098')).response.cp;
    expect(search.length).toBeGreaterThan(0);
    for (const cp of search) expect(cp).toMatch(/^098\d\d$/);
    expect([...search].sort()).toEqual(search);
    expect(ok(test.searchCp('09810')).response.cp).toEqual(['09810']);
  });

  it('is deterministic and validates input the same way; 105 and 110 never apply', () => {
    const test = createClient({ token: 'pruebas', dataPath: '/nonexistent/cpmx.msgpack' });
    expect(test.infoCp('12345')).toEqual(test.infoCp('12345'));
    expect(test.query('/query/info_cp/0981?token=pruebas').body).toEqual(errorOf(102));
    expect(test.query('/query/info_cp/0981x?token=pruebas').body).toEqual(errorOf(104));
    expect(test.query('/query/info_cp?token=pruebas').body).toEqual(errorOf(101));
    expect(test.query('/query/info_cp/09810?token=pruebas&type=x').body).toEqual(errorOf(112));
    expect(test.query('/query/get_municipio_por_estado/%20?token=pruebas').body).toEqual(errorOf(109));
    expect(test.query('/query/info_cp/99999?token=pruebas').status).toBe(200);
    expect(test.query('/query/get_municipio_por_estado/Texas?token=pruebas').status).toBe(200);
  });

  it('with a registry: 107 for an unknown token, 108 once credits are spent, credits only for real successes', () => {
    const credits = new Map([['project-a', 2]]);
    const registry = memoryRegistry(credits);
    const guarded = createClient({ token: 'project-a', dataPath, registry });
    expect(createClient({ token: 'stranger', dataPath, registry }).getEstados()).toEqual(errorOf(107));
    expect(createClient({ token: 'stranger', dataPath, registry }).infoCp('0')).toEqual(errorOf(107));
    expect(guarded.infoCp('99999')).toEqual(errorOf(105));
    expect(guarded.infoCp('0981')).toEqual(errorOf(102));
    expect(credits.get('project-a')).toBe(2);
    expect(guarded.query('/query/get_estados?token=pruebas').status).toBe(200);
    expect(credits.get('project-a')).toBe(2);
    expect(guarded.infoCp('09810', { type: 'simplified' })).toMatchObject({ error: false });
    expect(guarded.searchCp('0')).toMatchObject({ error: false });
    expect(credits.get('project-a')).toBe(0);
    expect(guarded.query('/query/get_estados?token=project-a')).toEqual({ status: 402, body: errorOf(108) });
    // lookup errors come before the credit check
    expect(guarded.infoCp('99999')).toEqual(errorOf(105));
  });
});
