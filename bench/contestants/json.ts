/**
 * Naive JSON, the shape of catalog packages that ship JSON: every row an object in one array,
 * loaded with JSON.parse and grouped into a Map by code; prefix search filters the codes.
 */
import { readFileSync } from 'node:fs';
import { codeError, failure, foldStateName, infoBody, prefixError, stateIndex, success, unique } from './contract.js';
import type { DataPaths, Lookups } from './types.js';

/** One row as such packages ship it: the catalog's own column names, trimmed values. */
export interface JsonRow {
  d_codigo: string;
  d_asenta: string;
  d_tipo_asenta: string;
  D_mnpio: string;
  d_estado: string;
  d_ciudad: string;
  c_estado: string;
  c_mnpio: string;
}

export function open(paths: DataPaths): Lookups {
  const rows = JSON.parse(readFileSync(paths.json, 'utf8')) as JsonRow[];
  const byCode = new Map<string, JsonRow[]>();
  const stateNames = new Map<string, string>();
  const municipalities = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const list = byCode.get(row.d_codigo);
    if (list) list.push(row);
    else byCode.set(row.d_codigo, [row]);
    if (!stateNames.has(row.c_estado)) {
      stateNames.set(row.c_estado, row.d_estado);
      municipalities.set(row.c_estado, new Map());
    }
    const ofState = municipalities.get(row.c_estado)!;
    if (!ofState.has(row.c_mnpio)) ofState.set(row.c_mnpio, row.D_mnpio);
  }
  const codes = [...byCode.keys()].sort();
  const stateKeys = [...stateNames.keys()].sort();
  const states = stateKeys.map((key) => stateNames.get(key)!);
  const stateByName = stateIndex(states);
  return {
    infoCp(cp, simplified) {
      const invalid = codeError(cp);
      if (invalid) return invalid;
      const list = byCode.get(cp);
      if (!list) return failure(105);
      const settlements = list.map((r) => ({ name: r.d_asenta, type: r.d_tipo_asenta, city: r.d_ciudad }));
      return infoBody(cp, settlements, list[0]!.D_mnpio, list[0]!.d_estado, simplified);
    },
    searchCp(prefix) {
      return prefixError(prefix) ?? success({ cp: codes.filter((cp) => cp.startsWith(prefix)) });
    },
    getEstados() {
      return success({ estado: [...states] });
    },
    getMunicipioPorEstado(estado) {
      if (!estado.trim()) return failure(109);
      const i = stateByName.get(foldStateName(estado));
      if (i === undefined) return failure(110);
      const ofState = municipalities.get(stateKeys[i]!)!;
      const keys = [...ofState.keys()].sort();
      return success({ municipios: unique(keys.map((key) => ofState.get(key)!)) });
    },
  };
}
