/**
 * Naive JSON, the shape of catalog packages that ship JSON: every row an object in one array,
 * loaded with JSON.parse and grouped into a Map by code; prefix search filters the codes, and
 * the version-2 methods filter the rows.
 */
import { readFileSync } from 'node:fs';
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
} from './contract.js';
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
  /** "" when the row has none. */
  c_cve_ciudad: string;
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
  /** The key of the state a name or alias names, or undefined. */
  const stateKey = (estado: string) => {
    const i = stateByName.get(foldStateName(estado));
    return i === undefined ? undefined : stateKeys[i]!;
  };
  const codesOf = (selected: JsonRow[]) => [...new Set(selected.map((r) => r.d_codigo))].sort();
  const keysOf = (key: string) => {
    const ofState = municipalities.get(key)!;
    return Object.fromEntries([...ofState.keys()].sort().map((k) => [ofState.get(k)!, k]));
  };
  /** The rows of the municipalities of a name (in `estado` only, when given), or the error. */
  const rowsOfMunicipality = (municipio: string, estado: string | undefined) => {
    const invalid = municipalityError(municipio, estado);
    if (invalid) return invalid;
    const key = estado ? stateKey(estado) : '';
    if (key === undefined) return failure(110);
    const folded = foldStateName(municipio);
    const selected = rows.filter((r) => (!key || r.c_estado === key) && foldStateName(r.D_mnpio) === folded);
    return selected.length ? selected : failure(115);
  };
  const colonias = (municipio: string, estado: string | undefined) => {
    const selected = rowsOfMunicipality(municipio, estado);
    return Array.isArray(selected) ? success({ colonia: unique(selected.map((r) => r.d_asenta)) }) : selected;
  };
  const cities = (key: string) => {
    const lowest = new Map<string, number>();
    for (const r of rows) {
      if (r.c_estado !== key || !r.d_ciudad) continue;
      const cityKey = r.c_cve_ciudad ? Number(r.c_cve_ciudad) : Number.POSITIVE_INFINITY;
      if (!lowest.has(r.d_ciudad) || cityKey < lowest.get(r.d_ciudad)!) lowest.set(r.d_ciudad, cityKey);
    }
    return [...lowest].sort(([, a], [, b]) => (a === b ? 0 : a < b ? -1 : 1)).map(([name]) => name);
  };
  /** The state key of a 1- or 2-digit key, or undefined. */
  const byKey = (clave: string) => stateKeys.find((key) => Number(key) === Number(clave));
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
    getColoniaPorCp(cp) {
      const invalid = codeError(cp);
      if (invalid) return invalid;
      const list = byCode.get(cp);
      return list ? success({ colonia: list.map((r) => r.d_asenta) }) : failure(105);
    },
    getCpPorEstado(estado) {
      if (!estado.trim()) return failure(109);
      const key = stateKey(estado);
      return key === undefined ? failure(110) : success({ cp: codesOf(rows.filter((r) => r.c_estado === key)) });
    },
    getCpPorMunicipio(municipio, estado) {
      const selected = rowsOfMunicipality(municipio, estado);
      return Array.isArray(selected) ? success({ cp: codesOf(selected) }) : selected;
    },
    getColoniaPorMunicipio: colonias,
    getColoniaPorEstadoMunicipio: (estado, municipio) => (estado.trim() ? colonias(municipio, estado) : failure(109)),
    searchCpAdvanced(estado, options) {
      const invalid = advancedError(estado, options);
      if (invalid) return invalid;
      const key = stateKey(estado);
      if (key === undefined) return failure(110);
      let selected = rows.filter((r) => r.c_estado === key);
      if (options.municipio) {
        const folded = foldStateName(options.municipio);
        selected = selected.filter((r) => foldStateName(r.D_mnpio) === folded);
        if (!selected.length) return failure(115);
      }
      const needle = coloniaNeedle(options.colonia);
      if (needle) selected = selected.filter((r) => foldSettlementName(r.d_asenta).includes(needle));
      return success({ cp: codesOf(selected).slice(0, options.limit) });
    },
    getEstadoClave() {
      return success({ estado_clave: Object.fromEntries(stateKeys.map((key, i) => [states[i]!, key])) });
    },
    getMunicipioClavePorEstado(estado) {
      if (!estado.trim()) return failure(109);
      const key = stateKey(estado);
      return key === undefined ? failure(110) : success({ municipio_clave: keysOf(key) });
    },
    getMunicipioClavePorClaveEstado(clave) {
      const key = byKey(clave);
      return keyError(clave) ?? (key === undefined ? failure(110) : success({ municipio_clave: keysOf(key) }));
    },
    getCitiesByStateCode(clave) {
      const key = byKey(clave);
      return keyError(clave) ?? (key === undefined ? failure(110) : success({ ciudad: cities(key) }));
    },
  };
}
