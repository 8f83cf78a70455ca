/**
 * Answers from the catalog, one function per answer, for requests whose parameters passed
 * their checks; the method table (methods.ts) says which answers which method. Lookup errors
 * (105, 110, 115) are answered here, a state before a municipality; everything before them is
 * the router's.
 */
import type { CatalogReader } from '../catalog-reader.js';
import {
  success,
  type CitiesByStateCodeBody,
  type ColoniaListBody,
  type CpListBody,
  type ErrorCode,
  type EstadoClaveBody,
  type EstadosBody,
  type MunicipioClaveBody,
  type MunicipiosBody,
} from '../contract.js';
import { findMunicipalities, findState, findStateByKey } from '../names.js';
import type { MunicipalityRequest, SearchCpAdvancedRequest } from '../checked-requests.js';
import { codesOfColonia } from '../settlement-search.js';

export const answerSearchCp = (catalog: CatalogReader, partial: string): CpListBody => success({ cp: catalog.codesStartingWith(partial) });

export const answerEstados = (catalog: CatalogReader): EstadosBody => success({ estado: catalog.stateNames().slice() });

export function answerMunicipios(catalog: CatalogReader, estado: string): MunicipiosBody | ErrorCode {
  const state = findState(catalog, estado);
  return state < 0 ? 110 : success({ municipios: catalog.municipalitiesOf(state).slice() });
}

export function answerColoniaPorCp(catalog: CatalogReader, cp: string): ColoniaListBody | ErrorCode {
  const code = catalog.codeIndex(cp);
  return code < 0 ? 105 : success({ colonia: catalog.settlementNamesOf(code) });
}

export function answerCpPorEstado(catalog: CatalogReader, estado: string): CpListBody | ErrorCode {
  const state = findState(catalog, estado);
  return state < 0 ? 110 : success({ cp: catalog.codesOfState(state) });
}

export function answerCpPorMunicipio(catalog: CatalogReader, request: MunicipalityRequest): CpListBody | ErrorCode {
  const municipalities = matchMunicipalities(catalog, request);
  return typeof municipalities === 'number' ? municipalities : success({ cp: catalog.codesOfMunicipalities(municipalities) });
}

export function answerColoniaPorMunicipio(catalog: CatalogReader, request: MunicipalityRequest): ColoniaListBody | ErrorCode {
  const municipalities = matchMunicipalities(catalog, request);
  return typeof municipalities === 'number' ? municipalities : success({ colonia: catalog.settlementNamesOfMunicipalities(municipalities) });
}

export const answerEstadoClave = (catalog: CatalogReader): EstadoClaveBody => success({ estado_clave: catalog.stateKeysByName() });

export function answerMunicipioClave(catalog: CatalogReader, estado: string): MunicipioClaveBody | ErrorCode {
  const state = findState(catalog, estado);
  return state < 0 ? 110 : success({ municipio_clave: catalog.municipalityKeysOf(state) });
}

export function answerMunicipioClavePorClave(catalog: CatalogReader, clave: string): MunicipioClaveBody | ErrorCode {
  const state = findStateByKey(catalog, clave);
  return state < 0 ? 110 : success({ municipio_clave: catalog.municipalityKeysOf(state) });
}

export function answerCitiesByStateCode(catalog: CatalogReader, clave: string): CitiesByStateCodeBody | ErrorCode {
  const state = findStateByKey(catalog, clave);
  return state < 0 ? 110 : success({ ciudad: catalog.citiesOf(state) });
}

/** The municipalities a request names (all of that name, or the one in `estado`), or 110 / 115. */
function matchMunicipalities(catalog: CatalogReader, request: MunicipalityRequest): readonly number[] | ErrorCode {
  let state = -1;
  if (request.estado !== undefined) {
    state = findState(catalog, request.estado);
    if (state < 0) return 110;
  }
  const municipalities = findMunicipalities(catalog, request.municipio, state);
  return municipalities.length ? municipalities : 115;
}

export function answerSearchCpAdvanced(catalog: CatalogReader, request: SearchCpAdvancedRequest): CpListBody | ErrorCode {
  const state = findState(catalog, request.estado);
  if (state < 0) return 110;
  let municipality = -1;
  if (request.municipio !== undefined) {
    const found = findMunicipalities(catalog, request.municipio, state);
    if (!found.length) return 115;
    municipality = found[0]!;
  }
  const limit = request.limit ?? Number.POSITIVE_INFINITY;
  const found = request.colonia === undefined ? undefined : codesOfColonia(catalog, state, request.colonia, municipality, limit);
  if (found) return success({ cp: found });
  return success({ cp: municipality < 0 ? catalog.codesOfState(state, limit) : catalog.codesOfMunicipalities([municipality], limit) });
}
