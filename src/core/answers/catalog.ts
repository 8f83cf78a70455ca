/**
 * Answers from the catalog, one function per answer, for requests whose parameters passed
 * their checks; the method table (methods.ts) says which answers which method. Lookup errors
 * (105, 110, 115) are answered here, a state before a municipality; everything before them is
 * the router's.
 */
import type { CatalogReader } from '../catalog-reader.js';
import { ENTRY_CIUDAD, ENTRY_ESTADO, ENTRY_MUNICIPIO, ENTRY_NAMES, entrySettlements, type CodeEntry } from '../code-entry.js';
import {
  success,
  type CitiesByStateCodeBody,
  type ColoniaListBody,
  type CpListBody,
  type ErrorCode,
  type EstadoClaveBody,
  type EstadosBody,
  type InfoCpBody,
  type MunicipioClaveBody,
  type MunicipiosBody,
  type PostalCodeRecord,
  type SimplifiedPostalCodeRecord,
  type SuccessEnvelope,
} from '../contract.js';
import { findMunicipalities, findState, findStateByKey, foldSettlementName } from '../names.js';
import type { MunicipalityRequest, SearchCpAdvancedRequest } from '../checked-requests.js';
import { codesWithSettlement, codesWithSettlementKey, readColonia } from '../settlement-search.js';

const PAIS = 'México';

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

/**
 * `info_cp`'s body for a code that passed its checks, or 105: by index, then entry, the two
 * reads the web client's tree view has too (the library's shortcut, router.infoCpBody, finds
 * the entry by the code's number instead).
 */
export function answerInfoCp(catalog: CatalogReader, cp: string, simplified: boolean): InfoCpBody | ErrorCode {
  const code = catalog.codeIndex(cp);
  // Written so: the web module's size is at its budget, and this minifies smallest.
  return code < 0 ? 105 : simplified ? simplifiedRecord(catalog.codeEntry(code), cp) : fullRecords(catalog.codeEntry(code), cp);
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
  // A `colonia` of only white space folds to nothing, which every name contains: no filter.
  const needle = request.colonia === undefined ? '' : foldSettlementName(request.colonia);
  if (needle) {
    const found = codesWithSettlement(catalog, state, needle, municipality, limit);
    // What the contract's search does not find, written as people write a settlement (`Col.
    // Roma Norte`, `Sta. María`), finds the codes of the settlements it names, read as
    // validation reads them.
    const read = found.length ? undefined : readColonia(request.colonia!);
    return success({ cp: read === undefined ? found : codesWithSettlementKey(catalog, state, read, municipality, limit) });
  }
  return success({ cp: municipality < 0 ? catalog.codesOfState(state, limit) : catalog.codesOfMunicipalities([municipality], limit) });
}

/** `info_cp`'s full-mode body for code `cp`, from its entry. */
export function fullRecords(entry: CodeEntry, cp: string): SuccessEnvelope<PostalCodeRecord>[] {
  const n = entrySettlements(entry);
  const municipio = entry[ENTRY_MUNICIPIO]!;
  const estado = entry[ENTRY_ESTADO]!;
  const ciudad = entry[ENTRY_CIUDAD]!;
  const body = new Array<SuccessEnvelope<PostalCodeRecord>>(n);
  for (let i = 0; i < n; i++) {
    body[i] = {
      error: false,
      code_error: 0,
      error_message: null,
      response: { cp, asentamiento: entry[ENTRY_NAMES + i]!, tipo_asentamiento: entry[ENTRY_NAMES + n + i]!, municipio, estado, ciudad, pais: PAIS },
    };
  }
  return body;
}

/** `info_cp`'s simplified body, fresh objects each time from the code's kept entry: a caller that changes its answer changes no other. */
export function simplifiedRecord(entry: CodeEntry, cp: string): SuccessEnvelope<SimplifiedPostalCodeRecord> {
  const n = entrySettlements(entry);
  return {
    error: false,
    code_error: 0,
    error_message: null,
    response: {
      cp,
      // One settlement (most codes): a literal, allocated with the objects around it, not a slice.
      asentamiento: n === 1 ? [entry[ENTRY_NAMES]!] : entry.slice(ENTRY_NAMES, ENTRY_NAMES + n),
      tipo_asentamiento: entry[ENTRY_NAMES + n]!,
      municipio: entry[ENTRY_MUNICIPIO]!,
      estado: entry[ENTRY_ESTADO]!,
      ciudad: entry[ENTRY_CIUDAD]!,
      pais: PAIS,
    },
  };
}
