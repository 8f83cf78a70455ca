/**
 * Answers from the catalog, for requests whose parameters passed their checks. Lookup
 * errors (105, 110) are answered here; everything before them is the router's.
 */
import type { Catalog } from '../catalog.js';
import { success, type Body, type ErrorCode, type PostalCodeRecord, type SimplifiedPostalCodeRecord, type SuccessEnvelope } from '../contract.js';
import { findState } from '../names.js';
import type { Request } from '../request.js';

const PAIS = 'México';

/** The body of a successful lookup, or the lookup's error code. */
export function answerFromCatalog(request: Request, catalog: Catalog): Body | ErrorCode {
  switch (request.method) {
    case 'info_cp': {
      const code = catalog.codeIndex(request.cp);
      if (code < 0) return 105;
      return request.simplified ? simplifiedRecord(catalog, code, request.cp) : fullRecords(catalog, code, request.cp);
    }
    case 'search_cp':
      return success({ cp: catalog.codesStartingWith(request.partial) });
    case 'get_estados':
      return success({ estado: catalog.stateNames().slice() });
    case 'get_municipio_por_estado': {
      const state = findState(catalog, request.estado);
      if (state < 0) return 110;
      return success({ municipios: catalog.municipalitiesOf(state).slice() });
    }
  }
}

function fullRecords(catalog: Catalog, code: number, cp: string): SuccessEnvelope<PostalCodeRecord>[] {
  const municipio = catalog.municipalityOf(code);
  const estado = catalog.stateOf(code);
  const ciudad = catalog.cityOf(code);
  const start = catalog.settlementStartOf(code);
  const end = catalog.settlementEndOf(code);
  const body = new Array<SuccessEnvelope<PostalCodeRecord>>(end - start);
  for (let s = start; s < end; s++) {
    body[s - start] = {
      error: false,
      code_error: 0,
      error_message: null,
      response: {
        cp,
        asentamiento: catalog.settlementName(s),
        tipo_asentamiento: catalog.settlementType(s),
        municipio,
        estado,
        ciudad,
        pais: PAIS,
      },
    };
  }
  return body;
}

function simplifiedRecord(catalog: Catalog, code: number, cp: string): SuccessEnvelope<SimplifiedPostalCodeRecord> {
  const start = catalog.settlementStartOf(code);
  const end = catalog.settlementEndOf(code);
  const names = new Array<string>(end - start);
  for (let s = start; s < end; s++) names[s - start] = catalog.settlementName(s);
  return {
    error: false,
    code_error: 0,
    error_message: null,
    response: {
      cp,
      asentamiento: names,
      tipo_asentamiento: catalog.settlementType(start),
      municipio: catalog.municipalityOf(code),
      estado: catalog.stateOf(code),
      ciudad: catalog.cityOf(code),
      pais: PAIS,
    },
  };
}
