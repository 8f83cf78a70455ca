/**
 * The reading of names on the real catalog: every state and every municipality in every
 * listed form, through the core's functions and through the API (library and paths), and the
 * contract's answers for its own spellings unchanged. The catalog is built from
 * ../shared/data/sepomex (these tests fail, never skip, without it).
 */
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/core/catalog.js';
import { MUNICIPALITY_TITLES, STATE_FORMS, STATE_PREFIXES } from '../../src/core/name-forms.js';
import { findMunicipalities, findState, matchSettlement, settlementKey } from '../../src/core/names.js';
import type { CpmxClient } from '../../src/index.js';
import { buildRealCatalog, CLI, ok, tempDir } from '../helpers.js';
import { DOORS, openDoor } from '../support/doors.js';

const dir = tempDir();
let catalog: Catalog;
let client: CpmxClient;
let artifact: string;

beforeAll(async () => ({ artifact, catalog, client } = await buildRealCatalog(dir, 'names-real-test')));

/** Full words of municipality names and the short forms people write for them. */
const SHORTENINGS: [RegExp, string][] = [
  [/\bSanta\b/g, 'Sta.'],
  [/\bSanto\b/g, 'Sto.'],
  [/\bSan\b/g, 'Sn.'],
  [/\bGeneral\b/g, 'Gral.'],
  [/\bCiudad\b/g, 'Cd.'],
  [/\bDoctor\b/g, 'Dr.'],
  [/\bFrancisco\b/g, 'Fco.'],
  [/\bMaría\b/g, 'Ma.'],
  [/\bLicenciado\b/g, 'Lic.'],
  [/\bIngeniero\b/g, 'Ing.'],
  [/\bGuadalupe\b/g, 'Gpe.'],
];

function shortened(name: string): string {
  return SHORTENINGS.reduce((text, [full, short]) => text.replace(full, short), name);
}

describe('states on the real catalog', () => {
  it('reads every state in every listed form, as findState and as the API', () => {
    const names = catalog.stateNames();
    for (const state of STATE_FORMS) {
      const index = names.indexOf(state.name);
      expect(index, state.name).toBeGreaterThanOrEqual(0);
      const forms = [state.iso, `MX-${state.iso}`, `mx-${state.iso.toLowerCase()}`, String(state.key).padStart(2, '0'), ...state.forms];
      for (const form of [...forms, ...forms.map((f) => f.replaceAll('.', '')), ...STATE_PREFIXES.map((p) => `${p} ${state.name}`)]) {
        expect(findState(catalog, form), form).toBe(index);
      }
      const expected = ok(client.getMunicipioPorEstado(state.name));
      expect(client.getMunicipioPorEstado(state.forms[0]!), state.forms[0]).toEqual(expected);
      expect(client.query(`/query/get_municipio_por_estado/${encodeURIComponent(state.forms[0]!)}?token=t`).body).toEqual(expected);
    }
  });

  it('reads the states as public addresses and lists of their abbreviations write them', () => {
    // Each as found in public code: `Col. Roma Sur, Cuauhtémoc, Cd. Méx., México C.P. 06760` and
    // `Campo Militar No. 1-A, Gral. Div. Álvaro Obregón, Cd. Méx.` (SEDENA); `Insurgentes Sur
    // 1143, Col. Nochebuena, C.P. 03720, Benito Juárez, Cd. de Méx.`; the CURP list of states
    // (`BAJA CALIF. SUR BS`); `Baja Calif.` in a chart's labels of states.
    const names = catalog.stateNames();
    const written: [string, string][] = [
      ['Cd. Méx.', 'Ciudad de México'],
      ['CD. MÉX.', 'Ciudad de México'],
      ['Cd. de Méx.', 'Ciudad de México'],
      ['BAJA CALIF. SUR', 'Baja California Sur'],
      ['Baja Calif.', 'Baja California'],
    ];
    for (const [form, state] of written) expect(names[findState(catalog, form)], form).toBe(state);
  });

  it('answers the issue’s example over the API, and 110 still for what names no state', () => {
    expect(client.query('/query/get_municipio_por_estado/N.L.?token=t').status).toBe(200);
    expect(client.query('/query/get_cp_por_estado/Q.%20Roo?token=t').body).toEqual(client.query('/query/get_cp_por_estado/Quintana%20Roo?token=t').body);
    for (const none of ['Texas', 'N', 'Quintana+Roo', 'Nuevo  León', 'Colonia', '33']) {
      expect(findState(catalog, none), none).toBe(-1);
    }
  });
});

describe('municipalities on the real catalog', () => {
  it('reads every municipality under every title and shortened, in its state and in all', () => {
    let read = 0;
    for (let m = 0; m < catalog.municipalityCount; m++) {
      const name = catalog.nameOfMunicipality(m);
      const state = catalog.stateOfMunicipality(m);
      for (const written of [...MUNICIPALITY_TITLES.map((title) => `${title} ${name}`), shortened(name), `Mpio. de ${shortened(name)}`]) {
        expect(findMunicipalities(catalog, written, state), written).toEqual([m]);
        expect(findMunicipalities(catalog, written), written).toContain(m);
        read++;
      }
    }
    expect(read).toBe(catalog.municipalityCount * (MUNICIPALITY_TITLES.length + 2));
  });

  it('answers a municipality written with its title over the API, as its catalog name', () => {
    const expected = ok(client.getColoniaPorMunicipio('Iztapalapa', { estado: 'Ciudad de México' }));
    expect(client.getColoniaPorMunicipio('Alc. Iztapalapa', { estado: 'CDMX' })).toEqual(expected);
    expect(client.query('/query/get_cp_por_municipio/Gral.%20Escobedo?estado=N.L.&token=t').body).toEqual(
      client.query('/query/get_cp_por_municipio/General%20Escobedo?estado=Nuevo%20Le%C3%B3n&token=t').body,
    );
    // A title in front of a name of several states: only the one of the state asked.
    expect(findMunicipalities(catalog, 'Mpio. Benito Juárez', findState(catalog, 'Q. Roo'))).toHaveLength(1);
    expect(findMunicipalities(catalog, 'Mpio. Benito Juárez').length).toBeGreaterThan(1);
    // The catalog's spellings respaced keep the contract's answer.
    expect(findMunicipalities(catalog, 'Alvaro  Obregon')).toEqual([]);
    expect(findMunicipalities(catalog, 'Benito+Juarez')).toEqual([]);
  });
});

describe('settlements on the real catalog', () => {
  it('finds a code’s settlement written with its type in front, in the catalog’s spelling', () => {
    expect(matchSettlement(catalog, '09810', 'COL. GRANJAS ESMERALDA')).toBe('Granjas Esmeralda');
    expect(matchSettlement(catalog, '09810', 'Col. Narvarte')).toBeUndefined();
    expect(matchSettlement(catalog, '99999', 'Centro')).toBeUndefined();
    expect(matchSettlement(catalog, catalog.codeIndex('06700'), 'COLONIA ROMA NORTE')).toBe('Roma Norte');
  });

  it('reads every settlement of the catalog written with a type in front and upper-cased, in its own code', () => {
    let read = 0;
    for (let code = 0; code < catalog.postalCodes().length; code++) {
      for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) {
        const name = catalog.settlementName(s);
        const found = matchSettlement(catalog, code, `Col. ${name.toUpperCase()}`);
        // The name itself, or the code's settlement of the name with the type written (Colonia Benito Juárez).
        expect([settlementKey(name), settlementKey(`Colonia ${name}`)], name).toContain(found === undefined ? undefined : settlementKey(found));
        read++;
      }
    }
    expect(read).toBe(145_092);
  });

  it('keys every settlement name of the catalog so that its key read again is the same key', () => {
    // Keys are read again (a name without the place after it, the words before a plaza): one key, however often read.
    const seen = new Set<string>();
    const changed: string[] = [];
    for (let s = 0; s < catalog.settlementEndOf(catalog.postalCodes().length - 1); s++) {
      const name = catalog.settlementName(s);
      if (seen.has(name)) continue;
      seen.add(name);
      const key = settlementKey(name);
      if (settlementKey(key) !== key) changed.push(`${name}: ${key} -> ${settlementKey(key)}`);
    }
    expect(seen.size).toBeGreaterThan(78_000);
    expect(changed).toEqual([]);
  });

  it('reads every settlement of the catalog by the names it gives beside its own (a place before it, a part in parentheses), in its own code only', () => {
    let read = 0;
    let downtowns = 0;
    for (let code = 0; code < catalog.postalCodes().length; code++) {
      const own = new Set<string>();
      for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) own.add(settlementKey(catalog.settlementName(s)));
      const municipality = settlementKey(catalog.municipalityOf(code));
      const city = settlementKey(catalog.cityOf(code));
      for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) {
        const name = catalog.settlementName(s);
        const key = settlementKey(name);
        // The names given beside a settlement's own, read here from the name, not from the code under test.
        const bare = name.includes('(') ? [name.replace(/\s*\([^()]*\)/gu, ' ').trim()] : [];
        // The longer of the municipality and the city when both lead the name (Parras de la Fuente Centro).
        const place = [municipality, city].filter((p) => p && key.startsWith(`${p} `)).sort((a, b) => b.length - a.length)[0] ?? (key.startsWith('zona ') ? 'zona' : undefined);
        // A downtown after its place is Centro, whatever words of the place's full name come between (Matamoros de La Laguna Centro).
        const after = place && place !== 'zona' && key.endsWith(' centro') ? 'centro' : place ? key.slice(place.length + 1) : undefined;
        const others = [...bare, ...(after ? [after] : [])].filter((other) => settlementKey(other) && !own.has(settlementKey(other)));
        for (const other of others) {
          // This settlement, or another of the code that the words name first (its own name, or with a type set aside).
          expect(matchSettlement(catalog, code, other), `${catalog.postalCode(code)} ${name}: ${other}`).toBeDefined();
          read++;
          if (settlementKey(other) === 'centro') downtowns++;
        }
      }
    }
    expect(read).toBeGreaterThan(9000);
    expect(downtowns).toBeGreaterThan(500);
    // Only the code's own municipality or city before the name is set aside.
    expect(matchSettlement(catalog, '03100', 'Centro')).toBeUndefined();
    expect(matchSettlement(catalog, '64000', 'Col. Centro')).toBe('Monterrey Centro');
    expect(matchSettlement(catalog, '22000', 'Centro')).toBe('Zona Centro');
    expect(matchSettlement(catalog, '06000', 'COL. CENTRO')).toBe('Centro (Área 1)');
    expect(matchSettlement(catalog, '42200', 'Centro')).toBe('Jacala Centro');
    expect(matchSettlement(catalog, '12000', 'Centro')).toBe('Villa Milpa Alta Centro');
    expect(matchSettlement(catalog, '25000', 'Centro')).toBe('Saltillo Zona Centro');
    // The longer place leads: Xalapa-Enríquez (the city), not Xalapa (the municipality).
    expect(matchSettlement(catalog, '91000', 'Centro')).toBe('Xalapa Enríquez Centro');
    // The place and more words of its full name before Centro: the municipality Matamoros's downtown.
    expect(matchSettlement(catalog, '27440', 'Centro')).toBe('Matamoros de La Laguna Centro');
    expect(matchSettlement(catalog, '27440', 'De La Laguna Centro')).toBeUndefined();
    expect(matchSettlement(catalog, '58000', 'Col. Centro')).toBe('Centro Histórico');
    // A part in parentheses is no name of its own: it often says where in a place.
    expect(matchSettlement(catalog, '58350', 'Centro')).toBeUndefined();
    expect(matchSettlement(catalog, '58350', 'Fracc. Los Laureles')).toMatch(/^Los Laureles/);
    // A downtown as people write it.
    expect(matchSettlement(catalog, '64000', 'Zona Centro')).toBe('Monterrey Centro');
    expect(matchSettlement(catalog, '06000', 'Col. Centro Histórico')).toBe('Centro (Área 1)');
    expect(matchSettlement(catalog, '97000', 'CENTRO HISTORICO')).toBe('Mérida Centro');
    expect(matchSettlement(catalog, '03100', 'Zona Centro')).toBeUndefined();
    // A type written with `de` after it, and a name that begins with De.
    expect(matchSettlement(catalog, '54600', 'Barrio de San Martín')).toBe('San Martín');
    expect(matchSettlement(catalog, '54600', 'PUEBLO DE SAN MATEO XOLOC')).toBe('San Mateo Xoloc');
    expect(matchSettlement(catalog, '54600', 'Barrio de San Juan')).toBeUndefined();
    // A type that names another place is not set aside for them either.
    expect(matchSettlement(catalog, '64000', 'Amp. Centro')).toBeUndefined();
  });

  it('reads the colonia filter of search_cp_advanced as validation reads settlements, never naming a wrong one', () => {
    const codes = (estado: string, options: { colonia: string; municipio?: string; limit?: number }) => ok(client.searchCpAdvanced(estado, options)).response.cp;
    // The contract's substring filter is unchanged for what is written as the catalog writes it.
    expect(codes('CDMX', { colonia: 'Roma Norte' })).toEqual(['06700']);
    for (const colonia of ['Col. Roma Norte', 'COLONIA ROMA NORTE', 'col roma norte', 'Colonia Roma Norte']) {
      expect(codes('CDMX', { colonia }), colonia).toEqual(['06700']);
      expect(codes('Ciudad de México', { colonia, municipio: 'Alc. Cuauhtémoc' }), colonia).toEqual(['06700']);
      expect(codes('Ciudad de México', { colonia, municipio: 'Iztapalapa' }), colonia).toEqual([]);
    }
    expect(codes('CDMX', { colonia: 'Col. Granjas Esmeralda' })).toEqual(['09810']);
    expect(codes('N.L.', { colonia: 'Col. Del Carmen' })).toEqual(codes('Nuevo León', { colonia: 'Del Carmen' }));
    expect(codes('Jalisco', { colonia: 'Fracc. Las Palmas' })).toEqual(codes('Jalisco', { colonia: 'Las Palmas' }));
    expect(codes('Quintana Roo', { colonia: 'Sm. 51' })).toEqual(codes('Quintana Roo', { colonia: 'Supermanzana 51' }));
    expect(codes('México', { colonia: 'Sta. María', limit: 7 })).toEqual(codes('México', { colonia: 'Santa María', limit: 7 }));
    // Wrong settlements stay wrong; a distinguishing type is never set aside.
    expect(codes('CDMX', { colonia: 'Col. Granjas Esmeraldas' })).toEqual([]);
    expect(codes('CDMX', { colonia: 'Col. Roma Oriente' })).toEqual([]);
    expect(codes('CDMX', { colonia: 'Granada' })).toEqual(['11520', '11529']);
    expect(codes('CDMX', { colonia: 'Amp. Granada' })).toEqual(['11529']);
    expect(codes('CDMX', { colonia: 'Amp. Granada', limit: 1 })).toEqual(['11529']);
  });

  it('answers the read colonia filter alike by the library’s paths, the CLI and HTTP (one router)', async () => {
    const path = '/query/search_cp_advanced/CDMX?token=t&colonia=Col.%20Roma%20Norte';
    const expected = client.query(path);
    expect(expected.body).toEqual(client.query('/query/get_cp_advanced/CDMX?token=t&colonia=COLONIA+ROMA+NORTE').body);
    expect(ok(expected.body as ReturnType<typeof client.searchCpAdvanced>).response.cp).toEqual(['06700']);
    const cli = spawnSync(process.execPath, [CLI, 'search_cp_advanced', 'CDMX', '--colonia', 'Col. Roma Norte', '--token', 't'], { env: { ...process.env, CPMX_DATA: artifact }, encoding: 'utf8' });
    expect(cli.status, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual(expected.body);
    // Over HTTP (`cpmx serve`, the middleware, the fetch handler), `cpmx query` and the library's path.
    for (const name of DOORS) {
      const door = await openDoor(name, { dataPath: artifact });
      try {
        const [answer] = await door.ask([path]);
        if (answer!.status !== undefined) expect(answer!.status, name).toBe(200);
        expect(JSON.parse(answer!.body), name).toEqual(expected.body);
      } finally {
        await door.close();
      }
    }
  });
});
