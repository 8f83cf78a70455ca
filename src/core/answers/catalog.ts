/**
 * Answers from the catalog, for requests whose parameters passed their checks. Lookup
 * errors (105, 110, 115) are answered here, a state before a municipality; everything
 * before them is the router's.
 */
import { ENTRY_CIUDAD, ENTRY_ESTADO, ENTRY_MUNICIPIO, ENTRY_NAMES, entrySettlements, type Catalog } from '../catalog.js';
import { success, type Body, type ErrorCode, type PostalCodeRecord, type SimplifiedPostalCodeRecord, type SuccessEnvelope } from '../contract.js';
import { findMunicipalities, findState, findStateByKey, foldSettlementName } from '../names.js';
import type { MunicipalityRequest, Request, SearchCpAdvancedRequest } from '../request.js';
import { codesWithSettlement } from '../settlement-search.js';

const PAIS = 'México';

/** The body of a successful lookup, or the lookup's error code. */
export function answerFromCatalog(request: Request, catalog: Catalog): Body | ErrorCode {
  switch (request.method) {
    case 'info_cp':
      return answerInfoCp(catalog, request.cp, request.simplified);
    case 'search_cp':
      return success({ cp: catalog.codesStartingWith(request.partial) });
    case 'get_estados':
      return success({ estado: catalog.stateNames().slice() });
    case 'get_municipio_por_estado': {
      const state = findState(catalog, request.estado);
      if (state < 0) return 110;
      return success({ municipios: catalog.municipalitiesOf(state).slice() });
    }
    case 'get_colonia_por_cp': {
      const code = catalog.codeIndex(request.cp);
      return code < 0 ? 105 : success({ colonia: catalog.settlementNamesOf(code) });
    }
    case 'get_cp_por_estado': {
      const state = findState(catalog, request.estado);
      return state < 0 ? 110 : success({ cp: catalog.codesOfState(state) });
    }
    case 'get_cp_por_municipio': {
      const municipalities = matchMunicipalities(catalog, request);
      return typeof municipalities === 'number' ? municipalities : success({ cp: catalog.codesOfMunicipalities(municipalities) });
    }
    case 'get_colonia_por_municipio': {
      const municipalities = matchMunicipalities(catalog, request);
      return typeof municipalities === 'number' ? municipalities : success({ colonia: catalog.settlementNamesOfMunicipalities(municipalities) });
    }
    case 'search_cp_advanced':
      return searchCpAdvanced(catalog, request);
    case 'get_estado_clave':
      return success({ estado_clave: catalog.stateKeysByName() });
    case 'get_municipio_clave_por_estado': {
      const state = findState(catalog, request.estado);
      return state < 0 ? 110 : success({ municipio_clave: catalog.municipalityKeysOf(state) });
    }
    case 'get_municipio_clave_por_clave_estado': {
      const state = findStateByKey(catalog, request.clave);
      return state < 0 ? 110 : success({ municipio_clave: catalog.municipalityKeysOf(state) });
    }
    case 'getCitiesByStateCode': {
      const state = findStateByKey(catalog, request.clave);
      return state < 0 ? 110 : success({ ciudad: catalog.citiesOf(state) });
    }
    case 'cuenta/consultas_disponibles':
      // The router answers it (the credit step fills in the count); it reads no catalog.
      return success({ consultas_disponibles: null });
  }
}

/** `info_cp`'s body for a code that passed its checks, or 105. */
export function answerInfoCp(catalog: Catalog, cp: string, simplified: boolean): Body | ErrorCode {
  const code = catalog.codeIndex(cp);
  if (code < 0) return 105;
  return simplified ? simplifiedRecord(catalog, code, cp) : fullRecords(catalog, code, cp);
}

/** The municipalities a request names (all of that name, or the one in `estado`), or 110 / 115. */
function matchMunicipalities(catalog: Catalog, request: MunicipalityRequest): readonly number[] | ErrorCode {
  let state = -1;
  if (request.estado !== undefined) {
    state = findState(catalog, request.estado);
    if (state < 0) return 110;
  }
  const municipalities = findMunicipalities(catalog, request.municipio, state);
  return municipalities.length ? municipalities : 115;
}

function searchCpAdvanced(catalog: Catalog, request: SearchCpAdvancedRequest): Body | ErrorCode {
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
  if (needle) return success({ cp: codesWithSettlement(catalog, state, needle, municipality, limit) });
  return success({ cp: municipality < 0 ? catalog.codesOfState(state, limit) : catalog.codesOfMunicipalities([municipality], limit) });
}

function fullRecords(catalog: Catalog, code: number, cp: string): SuccessEnvelope<PostalCodeRecord>[] {
  const entry = catalog.codeEntry(code);
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

/** Fresh objects each time from the code's kept entry: a caller that changes its answer changes no other. */
function simplifiedRecord(catalog: Catalog, code: number, cp: string): SuccessEnvelope<SimplifiedPostalCodeRecord> {
  const entry = catalog.codeEntry(code);
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
