/**
 * Test mode (token `pruebas`): generic, clearly fictitious data in exactly the shapes of
 * real answers, the same for the same request, without the catalog.
 */
import {
  success,
  type CitiesByStateCodeBody,
  type ColoniaListBody,
  type ConsultasDisponiblesBody,
  type CpListBody,
  type EstadoClaveBody,
  type EstadosBody,
  type InfoCpFullBody,
  type InfoCpSimplifiedBody,
  type MunicipioClaveBody,
  type MunicipiosBody,
  type PostalCodeRecord,
  type SimplifiedPostalCodeRecord,
} from '../contract.js';

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

/** Each answer of test mode, for the method table's rows (methods.ts). */
export const TEST_ANSWERS = {
  infoCp: (cp: string, simplified: boolean): InfoCpFullBody | InfoCpSimplifiedBody =>
    simplified ? success(simplifiedRecord(cp)) : fullRecords(cp).map((record) => success(record)),
  codesStartingWith: (partial: string): CpListBody => success({ cp: codesStartingWith(partial) }),
  states: (): EstadosBody => success({ estado: stateNames() }),
  municipalities: (): MunicipiosBody => success({ municipios: numbered('Municipio de prueba') }),
  settlements: (): ColoniaListBody => success({ colonia: SETTLEMENTS.map(([name]) => name) }),
  codes: (limit: number = CODES.length): CpListBody => success({ cp: CODES.slice(0, limit) }),
  stateKeys: (): EstadoClaveBody => success({ estado_clave: Object.fromEntries(stateNames().map((name, i) => [name, String(i + 1).padStart(2, '0')])) }),
  municipalityKeys: (): MunicipioClaveBody =>
    success({ municipio_clave: Object.fromEntries(numbered('Municipio de prueba').map((name, i) => [name, String(i + 1).padStart(3, '0')])) }),
  cities: (): CitiesByStateCodeBody => success({ ciudad: numbered('Ciudad de prueba') }),
  // Test mode counts nothing.
  credits: (): ConsultasDisponiblesBody => success({ consultas_disponibles: null }),
};

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
