/**
 * Test mode (token `pruebas`): generic, clearly fictitious data in exactly the shapes of
 * real answers, the same for the same request, without the catalog.
 */
import { success, type Body, type PostalCodeRecord, type SimplifiedPostalCodeRecord } from '../contract.js';
import type { Request } from '../request.js';

const SETTLEMENTS = [
  ['Asentamiento de prueba 1', 'Colonia'],
  ['Asentamiento de prueba 2', 'Fraccionamiento'],
  ['Asentamiento de prueba 3', 'Barrio'],
] as const;

const PLACE = {
  municipio: 'Municipio de prueba',
  estado: 'Estado de prueba',
  ciudad: 'Ciudad de prueba',
  pais: 'México',
} as const;

/** Codes no real state has (real ones start at 01000), for the methods that list a place's codes. */
const CODES = ['00001', '00002', '00003'] as const;

/** The test-mode body of a request whose parameters passed their checks. */
export function answerTestMode(request: Request): Body {
  switch (request.method) {
    case 'info_cp':
      return request.simplified ? success(simplifiedRecord(request.cp)) : fullRecords(request.cp).map((record) => success(record));
    case 'search_cp':
      return success({ cp: codesStartingWith(request.partial) });
    case 'get_estados':
      return success({ estado: stateNames() });
    case 'get_municipio_por_estado':
      return success({ municipios: numbered('Municipio de prueba') });
    case 'get_colonia_por_cp':
    case 'get_colonia_por_municipio':
      return success({ colonia: SETTLEMENTS.map(([name]) => name) });
    case 'get_cp_por_estado':
    case 'get_cp_por_municipio':
      return success({ cp: [...CODES] });
    case 'search_cp_advanced':
      return success({ cp: CODES.slice(0, request.limit ?? CODES.length) });
    case 'get_estado_clave':
      return success({ estado_clave: Object.fromEntries(stateNames().map((name, i) => [name, String(i + 1).padStart(2, '0')])) });
    case 'get_municipio_clave_por_estado':
    case 'get_municipio_clave_por_clave_estado':
      return success({ municipio_clave: Object.fromEntries(numbered('Municipio de prueba').map((name, i) => [name, String(i + 1).padStart(3, '0')])) });
    case 'getCitiesByStateCode':
      return success({ ciudad: numbered('Ciudad de prueba') });
    case 'cuenta/consultas_disponibles':
      // Test mode counts nothing.
      return success({ consultas_disponibles: null });
  }
}

/** Every 5-digit code has the same three fictitious settlements. */
function fullRecords(cp: string): PostalCodeRecord[] {
  return SETTLEMENTS.map(([asentamiento, tipo_asentamiento]) => ({ cp, asentamiento, tipo_asentamiento, ...PLACE }));
}

function simplifiedRecord(cp: string): SimplifiedPostalCodeRecord {
  return { cp, asentamiento: SETTLEMENTS.map(([name]) => name), tipo_asentamiento: SETTLEMENTS[0][1], ...PLACE };
}

/** Up to three codes that start with `digits`, ascending: the prefix padded with zeros, then the next ones. */
function codesStartingWith(digits: string): string[] {
  const free = 5 - digits.length;
  if (free === 0) return [digits];
  return Array.from({ length: Math.min(3, 10 ** free) }, (_, i) => digits + String(i).padStart(free, '0'));
}

/** Thirty-two states, as many as the real catalog has. */
function stateNames(): string[] {
  return Array.from({ length: 32 }, (_, i) => `Estado de prueba ${i + 1}`);
}

/** `Name 1` to `Name 3`. */
function numbered(name: string): string[] {
  return [1, 2, 3].map((n) => `${name} ${n}`);
}
