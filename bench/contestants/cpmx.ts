/** cpmx itself: the client of this package, from the compiled package entry. */
// The package entry, as users import it (the bundled dist/cpmx.js).
import { createClient } from 'cpmx';
import type { DataPaths, Lookups } from './types.js';

export function open(paths: DataPaths): Lookups {
  const client = createClient({ token: 'bench', dataPath: paths.artifact });
  return {
    infoCp: (cp, simplified) => client.infoCp(cp, simplified ? { type: 'simplified' } : undefined),
    searchCp: (prefix) => client.searchCp(prefix),
    getEstados: () => client.getEstados(),
    getMunicipioPorEstado: (estado) => client.getMunicipioPorEstado(estado),
    getColoniaPorCp: (cp) => client.getColoniaPorCp(cp),
    getCpPorEstado: (estado) => client.getCpPorEstado(estado),
    getCpPorMunicipio: (municipio, estado) => client.getCpPorMunicipio(municipio, { estado }),
    getColoniaPorMunicipio: (municipio, estado) => client.getColoniaPorMunicipio(municipio, { estado }),
    getColoniaPorEstadoMunicipio: (estado, municipio) => client.getColoniaPorEstadoMunicipio(estado, municipio),
    searchCpAdvanced: (estado, options) => client.searchCpAdvanced(estado, options),
    getEstadoClave: () => client.getEstadoClave(),
    getMunicipioClavePorEstado: (estado) => client.getMunicipioClavePorEstado(estado),
    getMunicipioClavePorClaveEstado: (clave) => client.getMunicipioClavePorClaveEstado(clave),
    getCitiesByStateCode: (clave) => client.getCitiesByStateCode(clave),
  };
}
