/**
 * The two COPOMEX geocoding methods, answered from the geodata (`cpmx build --geo`) and the
 * catalog: the checks of `lat`/`lng` (123, 124, 125), a code's point (118 when it has no
 * area), the code whose area holds a point (119 to 122 saying why none does), and 113 naming
 * what to build when there is no geodata. No I/O: the adapters hand the geodata in.
 */
import { ENTRY_CIUDAD, ENTRY_ESTADO, ENTRY_MUNICIPIO, ENTRY_NAMES, entrySettlements, type Catalog } from '../core/catalog.js';
import type { GeocodingReverseRequest } from '../core/checked-requests.js';
import {
  failureSaying,
  success,
  type ErrorCode,
  type ErrorEnvelope,
  type InfoCpGeocodingBody,
  type InfoCpGeocodingReverseBody,
  type SimplifiedPostalCodeRecord,
} from '../core/contract.js';
import type { GeoIndex, Outside } from './geo-index.js';

/** Why an artifact has no geodata: what 113 says. */
export const NO_GEODATA = 'este artefacto no tiene datos geográficos; constrúyalo con `cpmx build --geo FILE...` (los polígonos de Correos de México, GeoJSON por estado)';

/** The context's geodata, or why there is none. */
export const geoOf = (context: { geo?: (() => GeoIndex | string) | undefined }): GeoIndex | string => (context.geo ? context.geo() : NO_GEODATA);

const DECIMAL = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

/** `lat` and `lng` as numbers: 123 when one is missing, 124 when one is not a decimal number, 125 out of range. */
export function checkCoordinates(lat: string | undefined, lng: string | undefined, token: string): GeocodingReverseRequest | ErrorCode {
  if (lat === undefined || lng === undefined || lat.trim() === '' || lng.trim() === '') return 123;
  if (!DECIMAL.test(lat.trim()) || !DECIMAL.test(lng.trim())) return 124;
  const y = Number(lat);
  const x = Number(lng);
  if (!(Math.abs(y) <= 90) || !(Math.abs(x) <= 180)) return 125;
  return { method: 'info_cp_geocoding_reverse', token, lat: y, lng: x };
}

/** The place of a code as simplified info_cp gives it; empty where the catalog lacks the code (its polygon is newer). */
function place(catalog: Catalog, cp: string): SimplifiedPostalCodeRecord {
  const entry = catalog.postalCodeEntry(cp);
  if (!entry) return { cp, asentamiento: [], tipo_asentamiento: '', municipio: '', estado: '', ciudad: '', pais: 'México' };
  const n = entrySettlements(entry);
  return {
    cp,
    asentamiento: entry.slice(ENTRY_NAMES, ENTRY_NAMES + n),
    tipo_asentamiento: entry[ENTRY_NAMES + n]!,
    municipio: entry[ENTRY_MUNICIPIO]!,
    estado: entry[ENTRY_ESTADO]!,
    ciudad: entry[ENTRY_CIUDAD]!,
    pais: 'México',
  };
}

export function answerGeocoding(catalog: Catalog, geo: GeoIndex | string, cp: string): InfoCpGeocodingBody | ErrorCode | ErrorEnvelope {
  if (typeof geo === 'string') return failureSaying(113, geo);
  const slot = geo.slotOf(cp);
  if (slot < 0) return catalog.postalCodeEntry(cp) ? 118 : 105;
  const { asentamiento, tipo_asentamiento, municipio, estado, ciudad, pais } = place(catalog, cp);
  const point = geo.point(slot);
  const label = [cp, municipio, estado].filter(Boolean).join(', ');
  return success({
    cp,
    calle: null,
    numero: null,
    asentamiento,
    tipo_asentamiento,
    municipio,
    estado,
    ciudad,
    pais,
    geocoding: [{ lat: point.lat, lng: point.lng, label, precision: 'cp' }],
    area: { centroide: geo.centroid(slot), bbox: geo.bbox(slot), m2: Math.round(geo.area(slot)) },
  });
}

const OUTSIDE: Readonly<Record<Outside, ErrorCode>> = { sea: 119, abroad: 120, 'not-loaded': 121, gap: 122 };

export function answerGeocodingReverse(catalog: Catalog, geo: GeoIndex | string, lat: number, lng: number): InfoCpGeocodingReverseBody | ErrorCode | ErrorEnvelope {
  if (typeof geo === 'string') return failureSaying(113, geo);
  const slot = geo.locate(lat, lng);
  if (slot < 0) {
    const why = geo.outside(lat, lng);
    // Which states are loaded, so that the caller knows what a rebuild would add.
    return why === 'not-loaded' ? failureSaying(121, `los polígonos cargados son de ${geo.header.states.map((state) => state.estado).join(', ')}`) : OUTSIDE[why];
  }
  return success({ ...place(catalog, geo.codeAt(slot)), lat, lng });
}

/** Test mode's fictitious place: the same as test-mode info_cp's. */
const TEST_PLACE = {
  asentamiento: ['Asentamiento de prueba 1', 'Asentamiento de prueba 2', 'Asentamiento de prueba 3'],
  tipo_asentamiento: 'Colonia',
  municipio: 'Municipio de prueba',
  estado: 'Estado de prueba',
  ciudad: 'Ciudad de prueba',
  pais: 'México',
};

/** Test mode: a fictitious point for any code, any point in a fictitious code, in the real shapes. */
export const TEST_GEO = {
  geocoding: (cp: string): InfoCpGeocodingBody =>
    success({
      cp,
      calle: null,
      numero: null,
      ...TEST_PLACE,
      asentamiento: TEST_PLACE.asentamiento.slice(),
      geocoding: [{ lat: 0, lng: 0, label: `${cp}, Municipio de prueba, Estado de prueba`, precision: 'cp' }],
      area: { centroide: { lat: 0, lng: 0 }, bbox: [0, 0, 0, 0], m2: 0 },
    }),
  reverse: (lat: number, lng: number): InfoCpGeocodingReverseBody => success({ cp: '00001', ...TEST_PLACE, asentamiento: TEST_PLACE.asentamiento.slice(), lat, lng }),
};
