/**
 * SQLite, the shape of the SQLite-based postal libraries and APIs: one table of settlements
 * with an index on the code, queried through better-sqlite3; prefix search is a range query
 * on that index. Two small tables hold the states and municipalities for their lists. The
 * version-2 methods get the indexes a SQLite user would add (state, municipality, folded
 * municipality name); the settlement filter is a `LIKE '%x%'` scan over a folded column, as
 * SQLite users write it.
 */
import Database from 'better-sqlite3';
import type { CatalogRow } from '../../build/reader.js';
import {
  advancedError,
  codeError,
  coloniaNeedle,
  failure,
  foldSettlementName,
  foldStateName,
  infoBody,
  keyError,
  municipalityError,
  prefixError,
  stateIndex,
  success,
  unique,
  type SettlementRow,
} from './contract.js';
import type { DataPaths, Lookups } from './types.js';

/** Writes the database from catalog rows. */
export function create(path: string, rows: Iterable<CatalogRow>): void {
  const db = new Database(path);
  db.pragma('journal_mode = OFF');
  db.exec(`
    CREATE TABLE settlements (
      id INTEGER PRIMARY KEY, d_codigo TEXT NOT NULL, d_asenta TEXT NOT NULL, d_tipo_asenta TEXT NOT NULL,
      d_mnpio TEXT NOT NULL, d_estado TEXT NOT NULL, d_ciudad TEXT NOT NULL, c_estado INTEGER NOT NULL, c_mnpio INTEGER NOT NULL,
      c_cve_ciudad INTEGER, d_asenta_folded TEXT NOT NULL);
    CREATE TABLE states (c_estado INTEGER PRIMARY KEY, d_estado TEXT NOT NULL);
    CREATE TABLE municipalities (
      c_estado INTEGER NOT NULL, c_mnpio INTEGER NOT NULL, d_mnpio TEXT NOT NULL, d_mnpio_folded TEXT NOT NULL, PRIMARY KEY (c_estado, c_mnpio));`);
  const insert = db.prepare('INSERT INTO settlements VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const state = db.prepare('INSERT OR IGNORE INTO states VALUES (?, ?)');
  const municipality = db.prepare('INSERT OR IGNORE INTO municipalities VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const r of rows) {
      insert.run(r.postalCode, r.settlement, r.settlementType, r.municipality, r.state, r.city, r.stateKey, r.municipalityKey, r.cityKey ?? null, foldSettlementName(r.settlement));
      state.run(r.stateKey, r.state);
      municipality.run(r.stateKey, r.municipalityKey, r.municipality, foldStateName(r.municipality));
    }
  })();
  db.exec(`
    CREATE INDEX settlements_code ON settlements (d_codigo);
    CREATE INDEX settlements_state ON settlements (c_estado, d_codigo);
    CREATE INDEX settlements_municipality ON settlements (c_estado, c_mnpio, d_codigo);
    CREATE INDEX municipalities_name ON municipalities (d_mnpio_folded);
    VACUUM;`);
  db.close();
}

/** `LIKE` with its wildcards taken literally. */
const likeContaining = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function open(paths: DataPaths): Lookups {
  const db = new Database(paths.sqlite, { readonly: true });
  const byCode = db.prepare<[string], { d_asenta: string; d_tipo_asenta: string; d_mnpio: string; d_estado: string; d_ciudad: string }>(
    'SELECT d_asenta, d_tipo_asenta, d_mnpio, d_estado, d_ciudad FROM settlements WHERE d_codigo = ? ORDER BY id',
  );
  const namesOfCode = db.prepare<[string], string>('SELECT d_asenta FROM settlements WHERE d_codigo = ? ORDER BY id').pluck();
  const range = db.prepare<[string, string], string>('SELECT DISTINCT d_codigo FROM settlements WHERE d_codigo >= ? AND d_codigo < ? ORDER BY d_codigo').pluck();
  const statesQuery = db.prepare<[], { c_estado: number; d_estado: string }>('SELECT c_estado, d_estado FROM states ORDER BY c_estado');
  const municipalities = db.prepare<[number], string>('SELECT d_mnpio FROM municipalities WHERE c_estado = ? ORDER BY c_mnpio').pluck();
  const municipalityKeys = db.prepare<[number], { d_mnpio: string; c_mnpio: number }>('SELECT d_mnpio, c_mnpio FROM municipalities WHERE c_estado = ? ORDER BY c_mnpio');
  const codesOfState = db.prepare<[number], string>('SELECT DISTINCT d_codigo FROM settlements WHERE c_estado = ? ORDER BY d_codigo').pluck();
  const named = db.prepare<[string, number, number], { c_estado: number; c_mnpio: number }>(
    'SELECT c_estado, c_mnpio FROM municipalities WHERE d_mnpio_folded = ? AND (? < 0 OR c_estado = ?) ORDER BY c_estado, c_mnpio',
  );
  const codesOfMunicipalities = db.prepare<[string, number, number], string>(
    `SELECT DISTINCT s.d_codigo FROM municipalities m JOIN settlements s ON s.c_estado = m.c_estado AND s.c_mnpio = m.c_mnpio
     WHERE m.d_mnpio_folded = ? AND (? < 0 OR m.c_estado = ?) ORDER BY s.d_codigo`,
  ).pluck();
  const namesOfMunicipalities = db.prepare<[string, number, number], string>(
    `SELECT s.d_asenta FROM municipalities m JOIN settlements s ON s.c_estado = m.c_estado AND s.c_mnpio = m.c_mnpio
     WHERE m.d_mnpio_folded = ? AND (? < 0 OR m.c_estado = ?) GROUP BY s.d_asenta ORDER BY MIN(s.id)`,
  ).pluck();
  const advanced = db.prepare<[number, number, number, string, string, number], string>(
    `SELECT DISTINCT d_codigo FROM settlements WHERE c_estado = ? AND (? < 0 OR c_mnpio = ?) AND (? = '' OR d_asenta_folded LIKE ? ESCAPE '\\')
     ORDER BY d_codigo LIMIT ?`,
  ).pluck();
  const cities = db.prepare<[number], string>(
    `SELECT d_ciudad FROM settlements WHERE c_estado = ? AND d_ciudad <> '' GROUP BY d_ciudad
     ORDER BY MIN(COALESCE(c_cve_ciudad, 1000000)), MIN(id)`,
  ).pluck();
  const states = statesQuery.all();
  const stateByName = stateIndex(states.map((s) => s.d_estado));
  /** The state's key for a name or alias, or undefined. */
  const stateKey = (estado: string) => {
    const i = stateByName.get(foldStateName(estado));
    return i === undefined ? undefined : states[i]!.c_estado;
  };
  const keysOf = (key: number) => Object.fromEntries(municipalityKeys.all(key).map((m) => [m.d_mnpio, String(m.c_mnpio).padStart(3, '0')]));
  /** The state key to narrow to (-1: every state), or the error. */
  const municipalityLookup = (municipio: string, estado: string | undefined) => {
    const invalid = municipalityError(municipio, estado);
    if (invalid) return invalid;
    const key = estado ? stateKey(estado) : -1;
    if (key === undefined) return failure(110);
    const folded = foldStateName(municipio);
    return named.get(folded, key, key) ? { folded, key } : failure(115);
  };
  const colonias = (municipio: string, estado: string | undefined) => {
    const found = municipalityLookup(municipio, estado);
    return 'folded' in found ? success({ colonia: namesOfMunicipalities.all(found.folded, found.key, found.key) }) : found;
  };
  return {
    infoCp(cp, simplified) {
      const invalid = codeError(cp);
      if (invalid) return invalid;
      const rows = byCode.all(cp);
      if (rows.length === 0) return failure(105);
      const settlements: SettlementRow[] = rows.map((r) => ({ name: r.d_asenta, type: r.d_tipo_asenta, city: r.d_ciudad }));
      return infoBody(cp, settlements, rows[0]!.d_mnpio, rows[0]!.d_estado, simplified);
    },
    searchCp(prefix) {
      return prefixError(prefix) ?? success({ cp: range.all(prefix, `${prefix}:`) });
    },
    getEstados() {
      return success({ estado: statesQuery.all().map((s) => s.d_estado) });
    },
    getMunicipioPorEstado(estado) {
      if (!estado.trim()) return failure(109);
      const key = stateKey(estado);
      return key === undefined ? failure(110) : success({ municipios: unique(municipalities.all(key)) });
    },
    getColoniaPorCp(cp) {
      const invalid = codeError(cp);
      if (invalid) return invalid;
      const names = namesOfCode.all(cp);
      return names.length ? success({ colonia: names }) : failure(105);
    },
    getCpPorEstado(estado) {
      if (!estado.trim()) return failure(109);
      const key = stateKey(estado);
      return key === undefined ? failure(110) : success({ cp: codesOfState.all(key) });
    },
    getCpPorMunicipio(municipio, estado) {
      const found = municipalityLookup(municipio, estado);
      return 'folded' in found ? success({ cp: codesOfMunicipalities.all(found.folded, found.key, found.key) }) : found;
    },
    getColoniaPorMunicipio: colonias,
    getColoniaPorEstadoMunicipio: (estado, municipio) => (estado.trim() ? colonias(municipio, estado) : failure(109)),
    searchCpAdvanced(estado, options) {
      const invalid = advancedError(estado, options);
      if (invalid) return invalid;
      const key = stateKey(estado);
      if (key === undefined) return failure(110);
      let municipality = -1;
      if (options.municipio) {
        const found = named.get(foldStateName(options.municipio), key, key);
        if (!found) return failure(115);
        municipality = found.c_mnpio;
      }
      const needle = coloniaNeedle(options.colonia) ?? '';
      return success({ cp: advanced.all(key, municipality, municipality, needle, likeContaining(needle), options.limit ?? -1) });
    },
    getEstadoClave() {
      return success({ estado_clave: Object.fromEntries(statesQuery.all().map((s) => [s.d_estado, String(s.c_estado).padStart(2, '0')])) });
    },
    getMunicipioClavePorEstado(estado) {
      if (!estado.trim()) return failure(109);
      const key = stateKey(estado);
      return key === undefined ? failure(110) : success({ municipio_clave: keysOf(key) });
    },
    getMunicipioClavePorClaveEstado(clave) {
      const invalid = keyError(clave);
      if (invalid) return invalid;
      return states.some((s) => s.c_estado === Number(clave)) ? success({ municipio_clave: keysOf(Number(clave)) }) : failure(110);
    },
    getCitiesByStateCode(clave) {
      const invalid = keyError(clave);
      if (invalid) return invalid;
      return states.some((s) => s.c_estado === Number(clave)) ? success({ ciudad: cities.all(Number(clave)) }) : failure(110);
    },
    close: () => db.close(),
  };
}
