/**
 * SQLite, the shape of the SQLite-based postal libraries and APIs: one table of settlements
 * with an index on the code, queried through better-sqlite3; prefix search is a range query
 * on that index. Two small tables hold the states and municipalities for their lists.
 */
import Database from 'better-sqlite3';
import type { CatalogRow } from '../../build/reader.js';
import { codeError, failure, foldStateName, infoBody, prefixError, stateIndex, success, unique, type SettlementRow } from './contract.js';
import type { DataPaths, Lookups } from './types.js';

/** Writes the database from catalog rows. */
export function create(path: string, rows: Iterable<CatalogRow>): void {
  const db = new Database(path);
  db.pragma('journal_mode = OFF');
  db.exec(`
    CREATE TABLE settlements (
      id INTEGER PRIMARY KEY, d_codigo TEXT NOT NULL, d_asenta TEXT NOT NULL, d_tipo_asenta TEXT NOT NULL,
      d_mnpio TEXT NOT NULL, d_estado TEXT NOT NULL, d_ciudad TEXT NOT NULL, c_estado INTEGER NOT NULL, c_mnpio INTEGER NOT NULL);
    CREATE TABLE states (c_estado INTEGER PRIMARY KEY, d_estado TEXT NOT NULL);
    CREATE TABLE municipalities (c_estado INTEGER NOT NULL, c_mnpio INTEGER NOT NULL, d_mnpio TEXT NOT NULL, PRIMARY KEY (c_estado, c_mnpio));`);
  const insert = db.prepare('INSERT INTO settlements VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?)');
  const state = db.prepare('INSERT OR IGNORE INTO states VALUES (?, ?)');
  const municipality = db.prepare('INSERT OR IGNORE INTO municipalities VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const r of rows) {
      insert.run(r.postalCode, r.settlement, r.settlementType, r.municipality, r.state, r.city, r.stateKey, r.municipalityKey);
      state.run(r.stateKey, r.state);
      municipality.run(r.stateKey, r.municipalityKey, r.municipality);
    }
  })();
  db.exec('CREATE INDEX settlements_code ON settlements (d_codigo); VACUUM;');
  db.close();
}

export function open(paths: DataPaths): Lookups {
  const db = new Database(paths.sqlite, { readonly: true });
  const byCode = db.prepare<[string], { d_asenta: string; d_tipo_asenta: string; d_mnpio: string; d_estado: string; d_ciudad: string }>(
    'SELECT d_asenta, d_tipo_asenta, d_mnpio, d_estado, d_ciudad FROM settlements WHERE d_codigo = ? ORDER BY id',
  );
  const range = db.prepare<[string, string], string>('SELECT DISTINCT d_codigo FROM settlements WHERE d_codigo >= ? AND d_codigo < ? ORDER BY d_codigo').pluck();
  const statesQuery = db.prepare<[], { c_estado: number; d_estado: string }>('SELECT c_estado, d_estado FROM states ORDER BY c_estado');
  const municipalities = db.prepare<[number], string>('SELECT d_mnpio FROM municipalities WHERE c_estado = ? ORDER BY c_mnpio').pluck();
  const states = statesQuery.all();
  const stateByName = stateIndex(states.map((s) => s.d_estado));
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
      const i = stateByName.get(foldStateName(estado));
      if (i === undefined) return failure(110);
      return success({ municipios: unique(municipalities.all(states[i]!.c_estado)) });
    },
    close: () => db.close(),
  };
}
