/**
 * The upper bound: every answer prebuilt (from cpmx's own answers) in a Map, so a lookup is
 * one hash lookup and no allocation. It shows how close cpmx is to doing nothing at all; its
 * cold start is not measured, since building it means answering every query once.
 */
import { codeError, failure, foldStateName, prefixError, success } from './contract.js';
import { open as openCpmx } from './cpmx.js';
import type { DataPaths, Lookups } from './types.js';

export function open(paths: DataPaths): Lookups {
  const cpmx = openCpmx(paths);
  const full = new Map<string, unknown>();
  const simplified = new Map<string, unknown>();
  const search = new Map<string, unknown>();
  const walk = (prefix: string) => {
    const body = cpmx.searchCp(prefix) as { response: { cp: string[] } };
    if (body.response.cp.length === 0) return;
    search.set(prefix, body);
    if (prefix.length === 5) {
      full.set(prefix, cpmx.infoCp(prefix, false));
      simplified.set(prefix, cpmx.infoCp(prefix, true));
      return;
    }
    for (let d = 0; d <= 9; d++) walk(prefix + d);
  };
  for (let d = 0; d <= 9; d++) walk(String(d));
  const estados = cpmx.getEstados() as { response: { estado: string[] } };
  const municipios = new Map<string, unknown>();
  for (const name of estados.response.estado) municipios.set(foldStateName(name), cpmx.getMunicipioPorEstado(name));
  for (const alias of ['CDMX', 'Distrito Federal', 'Estado de México', 'Edomex', 'Coahuila', 'Michoacán', 'Veracruz']) {
    municipios.set(foldStateName(alias), cpmx.getMunicipioPorEstado(alias));
  }
  const noMatch = success({ cp: [] });
  return {
    infoCp: (cp, simple) => (simple ? simplified : full).get(cp) ?? codeError(cp) ?? failure(105),
    searchCp: (prefix) => search.get(prefix) ?? prefixError(prefix) ?? noMatch,
    getEstados: () => estados,
    getMunicipioPorEstado: (estado) => municipios.get(foldStateName(estado)) ?? (estado.trim() ? failure(110) : failure(109)),
  };
}
