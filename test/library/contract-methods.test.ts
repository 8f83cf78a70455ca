/**
 * The methods of contract version 2 beyond the first four, on the fixture catalog: each
 * method's answers and errors, the order of checks, `+` and `%2B`, repeated and empty
 * parameters, ambiguous municipalities, 113, test mode and credits. Expected answers are
 * written from the fixture's rows (test/fixtures/README.md).
 */
import { describe, expect, it } from 'vitest';
import { decodeCatalog, readArtifact } from '../../src/core/catalog.js';
import { UNAVAILABLE_METHODS } from '../../src/core/request.js';
import { encodeArtifact } from '../../build/write.js';
import { FORMAT_VERSION, type Artifact } from '../../src/core/format.js';
import { createClient, ERRORS, type CpmxClient, type ErrorCode } from '../../src/index.js';
import { readFileSync } from 'node:fs';
import { errorOf, fixtureClient, ok } from '../helpers.js';
import { memoryRegistry } from '../support/memory-registry.js';

const { dataPath, client } = await fixtureClient();
const test = createClient({ token: 'pruebas', dataPath: '/nonexistent/cpmx.msgpack' });
const q = (path: string) => client.query(path);

/** Each path answers its error with the contract's HTTP status. */
function expectErrors(cases: [string, ErrorCode][], on: CpmxClient = client) {
  for (const [path, code] of cases) expect(on.query(path), path).toEqual({ status: ERRORS[code][1], body: errorOf(code) });
}

const CDMX_CODES = ['01000', '01010', '03100', '09810', '09819', '11000'];

describe('the error table', () => {
  it('has 113 to 117 with their messages and statuses', () => {
    expect(ERRORS[113]).toEqual(['Método no disponible sin conexión', 501]);
    expect(ERRORS[114]).toEqual(['No se recibió el municipio', 400]);
    expect(ERRORS[115]).toEqual(['No se encontró el municipio', 404]);
    expect(ERRORS[116]).toEqual(['La clave del estado es inválida', 400]);
    expect(ERRORS[117]).toEqual(['El límite es inválido', 400]);
  });
});

describe('get_colonia_por_cp', () => {
  it('lists the code’s settlement names exactly as simplified info_cp does', () => {
    for (const cp of ['09810', '55810', '91000', '11000']) {
      expect(ok(client.getColoniaPorCp(cp)).response.colonia, cp).toEqual(ok(client.infoCp(cp, { type: 'simplified' })).response.asentamiento);
    }
    expect(client.getColoniaPorCp('09810')).toEqual({
      error: false,
      code_error: 0,
      error_message: null,
      response: { colonia: ['Granjas Esmeralda', 'Progreso del Sur', 'Chalet "La Cumbre"', 'Minerva', 'Minerva'] },
    });
  });

  it('checks the code as info_cp does: 101, 102, 104, then 105', () => {
    expectErrors([
      ['/query/get_colonia_por_cp?token=demo', 101],
      ['/query/get_colonia_por_cp/?token=demo', 101],
      ['/query/get_colonia_por_cp/0981?token=demo', 102],
      ['/query/get_colonia_por_cp/-0981?token=demo', 104],
      ['/query/get_colonia_por_cp/99999?token=demo', 105],
      ['/query/get_colonia_por_cp/09810/x?token=demo', 111],
    ]);
  });
});

describe('get_cp_por_estado', () => {
  it('lists every code of the state, ascending, by name or alias', () => {
    expect(ok(client.getCpPorEstado('Ciudad de México')).response.cp).toEqual(CDMX_CODES);
    expect(ok(client.getCpPorEstado(' cdmx ')).response.cp).toEqual(CDMX_CODES);
    expect(ok(client.getCpPorEstado('Edomex')).response.cp).toEqual(['50000', '55800', '55810']);
    expect(q('/query/get_cp_por_estado/Quintana+Roo?token=demo').body).toEqual(client.getCpPorEstado('Quintana Roo'));
    expect(ok(client.getCpPorEstado('Quintana Roo')).response.cp).toEqual(['77500']);
  });

  it('answers 109 and 110', () => {
    expectErrors([
      ['/query/get_cp_por_estado?token=demo', 109],
      ['/query/get_cp_por_estado/+?token=demo', 109],
      ['/query/get_cp_por_estado/Texas?token=demo', 110],
      ['/query/get_cp_por_estado/Quintana%2BRoo?token=demo', 110],
    ]);
  });
});

describe('municipalities: get_cp_por_municipio, get_colonia_por_municipio, get_colonia_por_estado_municipio', () => {
  it('answers for every state’s municipality of a name without estado, for one with it', () => {
    // Benito Juárez is 014 of Ciudad de México and 005 of Quintana Roo.
    expect(ok(client.getCpPorMunicipio('Benito Juárez')).response.cp).toEqual(['03100', '77500']);
    expect(ok(client.getCpPorMunicipio('benito juarez', { estado: 'Quintana Roo' })).response.cp).toEqual(['77500']);
    expect(ok(client.getCpPorMunicipio('BENITO JUÁREZ', { estado: 'CDMX' })).response.cp).toEqual(['03100']);
    expect(ok(client.getColoniaPorMunicipio('Benito Juárez')).response.colonia).toEqual(['Del Valle Centro', 'Cancún Centro']);
    expect(ok(client.getColoniaPorMunicipio('Benito Juárez', { estado: 'quintana roo' })).response.colonia).toEqual(['Cancún Centro']);
    expect(client.getColoniaPorEstadoMunicipio('Quintana Roo', 'Benito Juárez')).toEqual(client.getColoniaPorMunicipio('Benito Juárez', { estado: 'Quintana Roo' }));
    expect(client.getCpPorMunicipio('Benito Juárez', { estado: 'Coahuila' })).toEqual(errorOf(115));
  });

  it('lists codes ascending, each once, and names each once in catalog order of first occurrence', () => {
    expect(ok(client.getCpPorMunicipio('Iztapalapa')).response.cp).toEqual(['09810', '09819']);
    expect(ok(client.getCpPorMunicipio('Acolman')).response.cp).toEqual(['55800', '55810']);
    // 09819's row stands between rows of 09810 in the catalog: its name comes where its row is.
    expect(ok(client.getColoniaPorMunicipio('Iztapalapa')).response.colonia).toEqual([
      'Granjas Esmeralda',
      'Progreso del Sur',
      'Los Cipreses',
      'Chalet "La Cumbre"',
      'Minerva',
    ]);
    expect(ok(client.getColoniaPorMunicipio('Xalapa')).response.colonia).toEqual(['Xalapa Enríquez Centro']);
    expect(ok(client.getColoniaPorMunicipio('Acolman')).response.colonia).toEqual(['Acolman de Nezahualcóyotl', 'Santa Catarina', 'San Bartolo', 'Tepexpan']);
  });

  it('matches the municipality ignoring case, accents and surrounding spaces, with no aliases and no inner-space folding', () => {
    expect(ok(client.getCpPorMunicipio('  alvaro obregon ')).response.cp).toEqual(['01000', '01010']);
    expect(q('/query/get_cp_por_municipio/%C3%81lvaro+Obreg%C3%B3n?token=demo').body).toEqual(client.getCpPorMunicipio('Álvaro Obregón'));
    expect(client.getCpPorMunicipio('Alvaro  Obregon')).toEqual(errorOf(115));
    expect(client.getCpPorMunicipio('Ciudad de México')).toEqual(errorOf(115));
  });

  it('reads estado and municipio from the query, + as a space and %2B as a +, the first occurrence counting', () => {
    expect(q('/query/get_cp_por_municipio/Benito+Ju%C3%A1rez?token=demo&estado=Quintana+Roo').body).toEqual(client.getCpPorMunicipio('Benito Juárez', { estado: 'Quintana Roo' }));
    expect(q('/query/get_cp_por_municipio/Benito%20Juarez?estado=Quintana%2BRoo&token=demo').body).toEqual(errorOf(110));
    expect(q('/query/get_cp_por_municipio/Benito%2BJuarez?token=demo').body).toEqual(errorOf(115));
    expect(q('/query/get_cp_por_municipio/Benito+Juarez?token=demo&estado=cdmx&estado=Quintana+Roo').body).toEqual(client.getCpPorMunicipio('Benito Juárez', { estado: 'cdmx' }));
    expect(q('/query/get_colonia_por_estado_municipio?estado=Quintana+Roo&municipio=Benito+Ju%C3%A1rez&token=demo').body).toEqual(
      client.getColoniaPorMunicipio('Benito Juárez', { estado: 'Quintana Roo' }),
    );
  });

  it('takes an empty estado as absent, and one of spaces as missing (109)', () => {
    expect(q('/query/get_cp_por_municipio/Benito+Juarez?token=demo&estado=').body).toEqual(client.getCpPorMunicipio('Benito Juárez'));
    expect(client.getCpPorMunicipio('Benito Juárez', { estado: '' })).toEqual(client.getCpPorMunicipio('Benito Juárez'));
    // The first occurrence counts even when it is empty: it is then absent.
    expect(q('/query/get_cp_por_municipio/Benito+Juarez?token=demo&estado=&estado=cdmx').body).toEqual(client.getCpPorMunicipio('Benito Juárez'));
    expect(q('/query/get_cp_por_municipio/Benito+Juarez?token=demo&estado=%20').body).toEqual(errorOf(109));
  });

  it('answers 114, 109, 110 and 115 in the contract’s order', () => {
    expectErrors([
      ['/query/get_cp_por_municipio?token=demo', 114],
      ['/query/get_cp_por_municipio/?token=demo&estado=%20', 114],
      ['/query/get_colonia_por_municipio/++?token=demo&estado=Texas', 114],
      ['/query/get_colonia_por_municipio/Nowhere?token=demo&estado=+', 109],
      ['/query/get_cp_por_municipio/Nowhere?token=demo&estado=Texas', 110],
      ['/query/get_cp_por_municipio/Nowhere?token=demo', 115],
      ['/query/get_colonia_por_municipio/Toluca?token=demo&estado=cdmx', 115],
      ['/query/get_colonia_por_estado_municipio?token=demo', 109],
      ['/query/get_colonia_por_estado_municipio?token=demo&municipio=Toluca', 109],
      ['/query/get_colonia_por_estado_municipio?token=demo&estado=%20&municipio=%20', 109],
      ['/query/get_colonia_por_estado_municipio?token=demo&estado=Texas', 114],
      ['/query/get_colonia_por_estado_municipio?token=demo&estado=Texas&municipio=&municipio=Toluca', 114],
      ['/query/get_colonia_por_estado_municipio?token=demo&estado=Texas&municipio=Toluca', 110],
      ['/query/get_colonia_por_estado_municipio?token=demo&estado=cdmx&municipio=Toluca', 115],
      ['/query/get_colonia_por_estado_municipio/Toluca?token=demo&estado=Edomex', 111],
    ]);
    expect(ok(client.getColoniaPorEstadoMunicipio('Edomex', 'toluca')).response.colonia).toEqual(['Toluca de Lerdo Centro']);
  });
});

describe('search_cp_advanced and get_cp_advanced', () => {
  const advanced = (query: string) => q(`/query/search_cp_advanced/${query}`);

  it('lists the state’s codes, narrowed by municipality, settlement name and limit', () => {
    expect(ok(client.searchCpAdvanced('cdmx')).response.cp).toEqual(CDMX_CODES);
    expect(ok(client.searchCpAdvanced('cdmx', { municipio: 'Iztapalapa' })).response.cp).toEqual(['09810', '09819']);
    expect(ok(client.searchCpAdvanced('cdmx', { limit: 2 })).response.cp).toEqual(['01000', '01010']);
    expect(ok(client.searchCpAdvanced('cdmx', { municipio: 'Iztapalapa', limit: '1' })).response.cp).toEqual(['09810']);
    expect(ok(client.searchCpAdvanced('Quintana Roo', { municipio: 'Benito Juárez' })).response.cp).toEqual(['77500']);
    expect(ok(client.searchCpAdvanced('cdmx', { limit: 100_000 })).response.cp).toEqual(CDMX_CODES);
  });

  it('filters by settlement name folded, with runs of white space as one space', () => {
    // "Lomas  de Chapultepec" (two spaces) under 11000.
    expect(ok(client.searchCpAdvanced('cdmx', { colonia: '  LOMAS   DE chapul' })).response.cp).toEqual(['11000']);
    expect(ok(client.searchCpAdvanced('cdmx', { colonia: 'minerva' })).response.cp).toEqual(['09810']);
    expect(ok(client.searchCpAdvanced('cdmx', { colonia: 'Chalet "la' })).response.cp).toEqual(['09810']);
    expect(ok(client.searchCpAdvanced('cdmx', { colonia: 'los' })).response.cp).toEqual(['01010', '09819']);
    expect(ok(client.searchCpAdvanced('cdmx', { colonia: 'los', municipio: 'iztapalapa' })).response.cp).toEqual(['09819']);
    expect(ok(client.searchCpAdvanced('cdmx', { colonia: 'los', limit: 1 })).response.cp).toEqual(['01010']);
    expect(ok(client.searchCpAdvanced('cdmx', { colonia: 'e' })).response.cp).toEqual(CDMX_CODES);
    expect(ok(client.searchCpAdvanced('Michoacán', { colonia: 'CENTRO' })).response.cp).toEqual(['58000']);
    expect(ok(client.searchCpAdvanced('Edomex', { colonia: 'nezahualcoyotl' })).response.cp).toEqual(['55800']);
    // No match across the end of one name and the start of the next.
    expect(ok(client.searchCpAdvanced('cdmx', { colonia: 'esmeralda progreso' })).response.cp).toEqual([]);
    expect(ok(client.searchCpAdvanced('cdmx', { colonia: 'Texas' })).response.cp).toEqual([]);
    // Only white space folds to nothing, which every name contains.
    expect(ok(client.searchCpAdvanced('cdmx', { colonia: '   ' })).response.cp).toEqual(CDMX_CODES);
  });

  it('reads its query parameters decoded, + as a space, %2B as a +, empty ones absent', () => {
    expect(advanced('Ciudad+de+M%C3%A9xico?token=demo&municipio=Iztapalapa&colonia=granjas+esmeralda').body).toEqual(
      client.searchCpAdvanced('Ciudad de México', { municipio: 'Iztapalapa', colonia: 'granjas esmeralda' }),
    );
    expect(ok(client.searchCpAdvanced('cdmx', { colonia: 'granjas esmeralda' })).response.cp).toEqual(['09810']);
    expect(advanced('cdmx?token=demo&colonia=granjas%2Besmeralda').body).toEqual({ error: false, code_error: 0, error_message: null, response: { cp: [] } });
    expect(advanced('cdmx?token=demo&municipio=&colonia=&limit=').body).toEqual(client.searchCpAdvanced('cdmx'));
    expect(advanced('cdmx?token=demo&limit=1&limit=0').body).toEqual(client.searchCpAdvanced('cdmx', { limit: 1 }));
  });

  it('answers 109, 114, 117, 110 and 115 in the contract’s order', () => {
    expectErrors([
      ['/query/search_cp_advanced?token=demo', 109],
      ['/query/search_cp_advanced/%20?token=demo&municipio=%20&limit=0', 109],
      ['/query/search_cp_advanced/Texas?token=demo&municipio=%20&limit=0', 114],
      ['/query/search_cp_advanced/Texas?token=demo&municipio=Nowhere&limit=0', 117],
      ['/query/search_cp_advanced/Texas?token=demo&municipio=Nowhere', 110],
      ['/query/search_cp_advanced/cdmx?token=demo&municipio=Nowhere', 115],
      ['/query/search_cp_advanced/cdmx?token=demo&municipio=Toluca', 115],
    ]);
    for (const limit of ['0', '100001', '-1', '1.5', '1e3', 'abc', '%20', '+1', '%D9%A1', '99999999999999999999']) {
      expect(advanced(`cdmx?token=demo&limit=${limit}`), limit).toEqual({ status: 400, body: errorOf(117) });
    }
    expect(advanced('cdmx?token=demo&limit=0003').body).toEqual(client.searchCpAdvanced('cdmx', { limit: 3 }));
    expect(ok(client.searchCpAdvanced('cdmx', { limit: 3 })).response.cp).toEqual(CDMX_CODES.slice(0, 3));
  });

  it('answers under its older name get_cp_advanced exactly the same', () => {
    for (const query of ['cdmx?token=demo', 'cdmx?token=demo&colonia=los&limit=2', 'cdmx?token=demo&municipio=Nowhere', 'cdmx?token=demo&limit=0', '?token=demo']) {
      expect(q(`/query/get_cp_advanced/${query}`), query).toEqual(advanced(query));
    }
  });
});

describe('keys: get_estado_clave, get_municipio_clave_por_estado, get_municipio_clave_por_clave_estado', () => {
  it('maps every state to its two-digit key, in key order', () => {
    const body = ok(client.getEstadoClave());
    expect(body.response.estado_clave).toEqual({
      'Coahuila de Zaragoza': '05',
      'Ciudad de México': '09',
      México: '15',
      'Michoacán de Ocampo': '16',
      'Quintana Roo': '23',
      'Veracruz de Ignacio de la Llave': '30',
    });
    expect(Object.keys(body.response.estado_clave)).toEqual(ok(client.getEstados()).response.estado);
    expect(JSON.stringify(body)).toBe(
      '{"error":false,"code_error":0,"error_message":null,"response":{"estado_clave":{"Coahuila de Zaragoza":"05","Ciudad de México":"09","México":"15","Michoacán de Ocampo":"16","Quintana Roo":"23","Veracruz de Ignacio de la Llave":"30"}}}',
    );
    expect(q('/query/get_estado_clave/x?token=demo').body).toEqual(errorOf(111));
  });

  it('maps a state’s municipalities to their three-digit keys, in key order, by name or by key', () => {
    const cdmx = { Iztapalapa: '007', 'Álvaro Obregón': '010', 'Benito Juárez': '014', 'Miguel Hidalgo': '016' };
    expect(ok(client.getMunicipioClavePorEstado('cdmx')).response.municipio_clave).toEqual(cdmx);
    expect(Object.keys(ok(client.getMunicipioClavePorEstado('cdmx')).response.municipio_clave)).toEqual(Object.keys(cdmx));
    // Listed in the catalog as 106 before 002.
    expect(Object.entries(ok(client.getMunicipioClavePorEstado('Edomex')).response.municipio_clave)).toEqual([
      ['Acolman', '002'],
      ['Toluca', '106'],
    ]);
    for (const clave of ['9', '09']) expect(ok(client.getMunicipioClavePorClaveEstado(clave)).response.municipio_clave, clave).toEqual(cdmx);
    expect(client.getMunicipioClavePorClaveEstado(9)).toEqual(client.getMunicipioClavePorEstado('Ciudad de México'));
    expect(q('/query/get_municipio_clave_por_clave_estado/23?token=demo').body).toEqual(client.getMunicipioClavePorEstado('Quintana Roo'));
  });

  it('answers 109, 116 and 110 for keys, and 109, 110 for names', () => {
    expectErrors([
      ['/query/get_municipio_clave_por_estado?token=demo', 109],
      ['/query/get_municipio_clave_por_estado/Texas?token=demo', 110],
      ['/query/get_municipio_clave_por_clave_estado?token=demo', 109],
      ['/query/get_municipio_clave_por_clave_estado/%20?token=demo', 109],
      ['/query/get_municipio_clave_por_clave_estado/123?token=demo', 116],
      ['/query/get_municipio_clave_por_clave_estado/9a?token=demo', 116],
      ['/query/get_municipio_clave_por_clave_estado/+9?token=demo', 116],
      ['/query/get_municipio_clave_por_clave_estado/%D9%A9?token=demo', 116],
      ['/query/get_municipio_clave_por_clave_estado/cdmx?token=demo', 116],
      ['/query/get_municipio_clave_por_clave_estado/0?token=demo', 110],
      ['/query/get_municipio_clave_por_clave_estado/00?token=demo', 110],
      ['/query/get_municipio_clave_por_clave_estado/01?token=demo', 110],
      ['/query/get_municipio_clave_por_clave_estado/99?token=demo', 110],
    ]);
  });
});

describe('getCitiesByStateCode', () => {
  it('lists a state’s cities once each, ordered by c_cve_ciudad, the state by its key', () => {
    // Toluca de Lerdo comes first in the catalog but has key 02, Tepexpan 01.
    expect(ok(client.getCitiesByStateCode('15')).response.ciudad).toEqual(['Tepexpan', 'Toluca de Lerdo']);
    expect(ok(client.getCitiesByStateCode('9')).response.ciudad).toEqual(['Ciudad de México']);
    expect(client.getCitiesByStateCode(9)).toEqual(client.getCitiesByStateCode('09'));
    // Saltillo and Torreón share key 01: catalog order between them.
    expect(ok(client.getCitiesByStateCode('05')).response.ciudad).toEqual(['Saltillo', 'Torreón']);
    expect(ok(client.getCitiesByStateCode('16')).response.ciudad).toEqual(['Morelia']);
  });

  it('answers 109, 116 and 110', () => {
    expectErrors([
      ['/query/getCitiesByStateCode?token=demo', 109],
      ['/query/getCitiesByStateCode/x1?token=demo', 116],
      ['/query/getCitiesByStateCode/33?token=demo', 110],
      ['/query/getcitiesbystatecode/15?token=demo', 111],
    ]);
  });
});

describe('methods the catalog cannot answer (113)', () => {
  it('answers 113 (HTTP 501) for each, with or without segments, before the token', () => {
    for (const method of UNAVAILABLE_METHODS) {
      for (const path of [`/query/${method}`, `/query/${method}/`, `/query/${method}/09810?token=demo`, `/query/${method}/a/b/c?token=pruebas&lat=19.4`]) {
        expect(createClient({ dataPath }).query(path), path).toEqual({ status: 501, body: errorOf(113) });
      }
    }
    expect(createClient({ dataPath }).query('/query/INFO_CP_GEOCODING/09810').body).toEqual(errorOf(111));
    expect(createClient({ dataPath }).query('/query/info%5Flocalidad/09810').body).toEqual(errorOf(113));
    // The geocoding methods answer from geodata (docs/geo.md); without it, 113 says what to build.
    const geocoding = createClient({ dataPath }).query('/query/info%5Fcp%5Fgeocoding/09810?token=demo');
    expect(geocoding.status).toBe(501);
    expect(geocoding.body).toMatchObject({ error: true, code_error: 113, response: null });
    expect((geocoding.body as { error_message: string }).error_message).toMatch(/^Método no disponible sin conexión: .*cpmx build --geo FILE/);
  });
});

describe('paths of version 2', () => {
  it('decodes every segment before reading it, query and the method’s name included', () => {
    expect(q('/query/info%5Fcp/09810?token=demo').body).toEqual(client.infoCp('09810'));
    expect(q('/qu%65ry/get_estados?token=demo').body).toEqual(client.getEstados());
    expect(q('/query/getCitiesByStateCode/%31%35?token=demo').body).toEqual(client.getCitiesByStateCode('15'));
    expect(q('/query/get+estados?token=demo').body).toEqual(errorOf(111));
    expect(q('/query/cuenta%2Fconsultas_disponibles?token=demo').body).toEqual(errorOf(111));
  });

  it('gives one segment to the methods written with one, none to the others', () => {
    expectErrors([
      ['/query/get_cp_por_estado/cdmx/x?token=demo', 111],
      ['/query/getCitiesByStateCode/15/x?token=demo', 111],
      ['/query/search_cp_advanced/cdmx/Iztapalapa?token=demo', 111],
      ['/query/cuenta/consultas_disponibles/x?token=demo', 111],
      ['/query/cuenta?token=demo', 111],
      ['/query/cuenta/otra?token=demo', 111],
    ]);
    expect(q('/query/cuenta/consultas_disponibles/?token=demo').status).toBe(200);
  });

  it('gives the typed methods and query the same answers', () => {
    const pairs: [unknown, string][] = [
      [client.getColoniaPorCp('55810'), '/query/get_colonia_por_cp/55810'],
      [client.getCpPorEstado('Veracruz'), '/query/get_cp_por_estado/Veracruz'],
      [client.getCpPorMunicipio('Benito Juárez'), '/query/get_cp_por_municipio/Benito%20Ju%C3%A1rez'],
      [client.getCpPorMunicipio('Toluca', { estado: 'cdmx' }), '/query/get_cp_por_municipio/Toluca?estado=cdmx'],
      [client.getColoniaPorMunicipio('Acolman', { estado: 'México' }), '/query/get_colonia_por_municipio/Acolman?estado=M%C3%A9xico'],
      [client.getColoniaPorEstadoMunicipio('', 'Acolman'), '/query/get_colonia_por_estado_municipio?municipio=Acolman'],
      [client.searchCpAdvanced('cdmx', { colonia: 'los', limit: 0 }), '/query/search_cp_advanced/cdmx?colonia=los&limit=0'],
      [client.searchCpAdvanced('cdmx', { colonia: 'los', municipio: 'Iztapalapa' }), '/query/search_cp_advanced/cdmx?colonia=los&municipio=Iztapalapa'],
      [client.getEstadoClave(), '/query/get_estado_clave'],
      [client.getMunicipioClavePorEstado('Coahuila'), '/query/get_municipio_clave_por_estado/Coahuila'],
      [client.getMunicipioClavePorClaveEstado('5'), '/query/get_municipio_clave_por_clave_estado/5'],
      [client.getCitiesByStateCode('x'), '/query/getCitiesByStateCode/x'],
      [client.consultasDisponibles(), '/query/cuenta/consultas_disponibles'],
    ];
    for (const [typed, path] of pairs) {
      expect(typed, path).toEqual(q(path).body);
      expect(typed, path).toEqual(q(`${path}${path.includes('?') ? '&' : '?'}token=demo`).body);
    }
  });

  it('takes the client’s token for a path without one; the path’s own token wins', () => {
    expect(q('/query/get_estados').body).toEqual(client.getEstados());
    expect(q('/query/get_estados?token=pruebas').body).toEqual(test.getEstados());
    expect(createClient({ dataPath }).query('/query/get_estados')).toEqual({ status: 401, body: errorOf(106) });
  });
});

describe('test mode', () => {
  it('answers every method with fictitious data of the same shapes, deterministic, without an artifact', () => {
    // Every method asked once; asked again at the end, each must answer the same.
    const askEveryMethod = () => [
      test.getColoniaPorCp('12345'),
      test.getCpPorEstado('Texas'),
      test.getCpPorMunicipio('Nowhere', { estado: 'Texas' }),
      test.getColoniaPorMunicipio('Nowhere'),
      test.getColoniaPorEstadoMunicipio('Texas', 'Nowhere'),
      test.searchCpAdvanced('Texas', { municipio: 'Nowhere', colonia: 'x' }),
      test.getEstadoClave(),
      test.getMunicipioClavePorEstado('Texas'),
      test.getMunicipioClavePorClaveEstado('99'),
      test.getCitiesByStateCode('00'),
      test.consultasDisponibles(),
    ];
    const bodies = askEveryMethod();
    for (const body of bodies) expect(body).toMatchObject({ error: false, code_error: 0, error_message: null });
    expect(ok(test.getColoniaPorCp('12345')).response.colonia).toEqual(ok(test.infoCp('12345', { type: 'simplified' })).response.asentamiento);
    expect(ok(test.getColoniaPorMunicipio('x')).response.colonia.every((name) => /prueba/.test(name))).toBe(true);
    const codes = ok(test.getCpPorEstado('x')).response.cp;
    expect(codes.length).toBeGreaterThan(0);
    for (const cp of codes) expect(cp).toMatch(/^00\d{3}$/); // no real code starts with 00
    expect([...codes].sort()).toEqual(codes);
    expect(ok(test.searchCpAdvanced('x', { limit: 1 })).response.cp).toEqual(codes.slice(0, 1));
    const states = ok(test.getEstadoClave()).response.estado_clave;
    expect(Object.keys(states)).toEqual(ok(test.getEstados()).response.estado);
    expect(Object.values(states)).toEqual(Array.from({ length: 32 }, (_, i) => String(i + 1).padStart(2, '0')));
    for (const key of Object.values(ok(test.getMunicipioClavePorEstado('x')).response.municipio_clave)) expect(key).toMatch(/^\d{3}$/);
    expect(Object.keys(ok(test.getMunicipioClavePorClaveEstado('9')).response.municipio_clave)).toEqual(ok(test.getMunicipioPorEstado('x')).response.municipios);
    expect(ok(test.getCitiesByStateCode('9')).response.ciudad.every((name) => /prueba/.test(name))).toBe(true);
    expect(test.consultasDisponibles()).toEqual({ error: false, code_error: 0, error_message: null, response: { consultas_disponibles: null } });
    expect(bodies).toEqual(askEveryMethod());
  });

  it('runs the same input checks (109, 114, 116, 117), never the lookups (110, 115)', () => {
    expectErrors(
      [
        ['/query/get_colonia_por_cp/0981?token=pruebas', 102],
        ['/query/get_cp_por_estado/%20?token=pruebas', 109],
        ['/query/get_cp_por_municipio?token=pruebas', 114],
        ['/query/get_cp_por_municipio/x?token=pruebas&estado=+', 109],
        ['/query/get_colonia_por_estado_municipio?token=pruebas&estado=x', 114],
        ['/query/getCitiesByStateCode/abc?token=pruebas', 116],
        ['/query/search_cp_advanced/x?token=pruebas&limit=100001', 117],
        ['/query/get_vialidad?token=pruebas', 113],
      ],
      test,
    );
    expect(test.query('/query/get_cp_por_municipio/Nowhere?token=pruebas&estado=Texas').status).toBe(200);
    expect(test.query('/query/getCitiesByStateCode/99?token=pruebas').status).toBe(200);
  });
});

describe('credits', () => {
  it('every successful real answer costs one credit; errors and test mode none; consultas_disponibles reads the count for free', () => {
    const credits = new Map([['project', 13]]);
    const registry = memoryRegistry(credits);
    const project = createClient({ token: 'project', dataPath, registry });
    expect(project.consultasDisponibles()).toEqual({ error: false, code_error: 0, error_message: null, response: { consultas_disponibles: 13 } });
    const successes = [
      () => project.getColoniaPorCp('09810'),
      () => project.getCpPorEstado('cdmx'),
      () => project.getCpPorMunicipio('Benito Juárez'),
      () => project.getColoniaPorMunicipio('Benito Juárez'),
      () => project.getColoniaPorEstadoMunicipio('cdmx', 'Iztapalapa'),
      () => project.searchCpAdvanced('cdmx', { colonia: 'los' }),
      () => project.query('/query/get_cp_advanced/cdmx?token=project').body,
      () => project.getEstadoClave(),
      () => project.getMunicipioClavePorEstado('cdmx'),
      () => project.getMunicipioClavePorClaveEstado('9'),
      () => project.getCitiesByStateCode('15'),
    ];
    for (const [i, call] of successes.entries()) {
      const body = call() as { error: boolean };
      expect(body.error, String(i)).toBe(false);
      expect(credits.get('project'), String(i)).toBe(12 - i);
      expect(ok(project.consultasDisponibles()).response.consultas_disponibles).toBe(12 - i);
    }
    expect(credits.get('project')).toBe(2);
    // Errors cost nothing: parameters, lookups, 113; nor does test mode.
    expect(project.getCpPorMunicipio('Nowhere')).toEqual(errorOf(115));
    expect(project.getCitiesByStateCode('abc')).toEqual(errorOf(116));
    expect(project.query('/query/info_localidad/09810').body).toEqual(errorOf(113));
    expect(project.query('/query/info_cp_geocoding/09810').body).toMatchObject({ code_error: 113 });
    expect(project.query('/query/get_estado_clave?token=pruebas').status).toBe(200);
    expect(credits.get('project')).toBe(2);
    expect(project.getEstadoClave().error).toBe(false);
    expect(project.getEstadoClave().error).toBe(false);
    expect(project.getEstadoClave()).toEqual(errorOf(108));
    expect(project.query('/query/get_cp_por_estado/cdmx')).toEqual({ status: 402, body: errorOf(108) });
    // Lookup errors come before the credit check; the count reads 0, never 108.
    expect(project.getCpPorEstado('Texas')).toEqual(errorOf(110));
    expect(project.consultasDisponibles()).toEqual({ error: false, code_error: 0, error_message: null, response: { consultas_disponibles: 0 } });
    expect(credits.get('project')).toBe(0);
  });

  it('answers 107 for a token the registry does not hold, before parameters; null where nothing counts', () => {
    const registry = memoryRegistry(new Map([['project', 1]]));
    const stranger = createClient({ token: 'stranger', dataPath, registry });
    expect(stranger.consultasDisponibles()).toEqual(errorOf(107));
    expect(stranger.getCitiesByStateCode('abc')).toEqual(errorOf(107));
    expect(stranger.query('/query/get_vialidad').body).toEqual(errorOf(113));
    expect(createClient({ token: 'pruebas', dataPath, registry }).consultasDisponibles()).toEqual(test.consultasDisponibles());
    expect(ok(client.consultasDisponibles()).response.consultas_disponibles).toBeNull();
    // No token: nothing counts locally (null); a registry counts tokens, so it needs one (106).
    expect(ok(createClient({ dataPath }).consultasDisponibles()).response.consultas_disponibles).toBeNull();
    expect(createClient({ dataPath, registry }).consultasDisponibles()).toEqual(errorOf(106));
  });

  it('reads no catalog for consultas_disponibles', () => {
    const registry = memoryRegistry(new Map([['project', 4]]));
    const absent = createClient({ token: 'pruebas', dataPath: '/nonexistent/cpmx.msgpack', registry });
    expect(absent.query('/query/cuenta/consultas_disponibles?token=project').body).toEqual({ error: false, code_error: 0, error_message: null, response: { consultas_disponibles: 4 } });
  });
});

describe('the artifact of the version-2 methods', () => {
  it('refuses an artifact of the format before (3: no city lists) with the rebuild message', () => {
    const artifact = readArtifact(readFileSync(dataPath));
    expect(artifact.header.version).toBe(FORMAT_VERSION);
    const { stateCityCounts: _counts, stateCities: _cities, settlementRanks: _ranks, ...before } = artifact;
    const old = encodeArtifact({ ...before, header: { ...artifact.header, version: FORMAT_VERSION - 1 } } as Artifact);
    expect(() => decodeCatalog(old, '/x/old.msgpack')).toThrow(
      `/x/old.msgpack: is an artifact of format version ${FORMAT_VERSION - 1}, and this cpmx reads version ${FORMAT_VERSION}; run \`cpmx build\``,
    );
  });

  it('keeps the catalog order only where it differs from the artifact’s (the fixture is not sorted by code)', () => {
    const artifact = readArtifact(readFileSync(dataPath));
    // Iztapalapa's settlements: 09810 has ranks 0, 1, 3, 4, 5 and 09819, between them in the catalog, 2.
    expect(Array.from(artifact.settlementRanks!.subarray(3, 9))).toEqual([0, 1, 3, 4, 5, 2]);
    expect(Array.from(artifact.stateCityCounts)).toEqual([2, 1, 2, 1, 1, 1]);
  });
});
