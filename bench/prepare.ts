/**
 * Builds every contestant's data from one catalog into a work directory (bench/work/ by
 * default, git-ignored): the cpmx artifact, the SQLite database, the JSON file.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { buildArtifact } from '../build/build.js';
import { CatalogReader, type CatalogRow } from '../build/reader.js';
import type { JsonRow } from './contestants/json.js';
import { create as createSqlite } from './contestants/sqlite.js';
import { dataPaths } from './contestants/types.js';

export interface Prepared {
  rows: number;
  bytes: { artifact: number; sqlite: number; json: number };
}

export async function prepare(catalog: string, work: string): Promise<Prepared> {
  mkdirSync(work, { recursive: true });
  const paths = dataPaths(work);
  await buildArtifact({ source: catalog, out: paths.artifact });
  const rows: CatalogRow[] = [];
  for await (const row of new CatalogReader(catalog).rows()) rows.push(row);
  for (const suffix of ['', '-journal', '-wal']) rmSync(paths.sqlite + suffix, { force: true });
  createSqlite(paths.sqlite, rows);
  const json: JsonRow[] = rows.map((r) => ({
    d_codigo: r.postalCode,
    d_asenta: r.settlement,
    d_tipo_asenta: r.settlementType,
    D_mnpio: r.municipality,
    d_estado: r.state,
    d_ciudad: r.city,
    c_estado: String(r.stateKey).padStart(2, '0'),
    c_mnpio: String(r.municipalityKey).padStart(3, '0'),
    c_cve_ciudad: r.cityKey === undefined ? '' : String(r.cityKey).padStart(2, '0'),
  }));
  writeFileSync(paths.json, JSON.stringify(json));
  const size = (path: string) => statSync(path).size;
  return { rows: rows.length, bytes: { artifact: size(paths.artifact), sqlite: size(paths.sqlite), json: size(paths.json) } };
}
