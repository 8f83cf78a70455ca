/**
 * The two COPOMEX geocoding methods, answered from the geodata (`cpmx build --geo`) and the
 * catalog: the checks of `lat`/`lng` (145, 146, 147), a code's point (140 when it has no
 * area), the code whose area holds a point (141 to 144 saying why none does), and 113 naming
 * what to build when there is no geodata. No I/O: the adapters hand the geodata in.
 */
import { simplifiedRecord } from '../answers/info-cp.js';
import type { CatalogReader } from '../catalog-reader.js';
import type { GeocodingReverseRequest } from '../checked-requests.js';
import {
  failureSaying,
  success,
  type ErrorCode,
  type ErrorEnvelope,
  type InfoCpGeocodingBody,
  type InfoCpGeocodingReverseBody,
  type SimplifiedPostalCodeRecord,
} from '../contract.js';
import type { GeoIndex, Outside } from './geo-index.js';
import { NO_GEODATA } from './messages.js';

export { NO_GEODATA };

/** A code's geodata as a web tree's shard carries it: point lat, lng, centroid lat, lng, west, south, east, north, square metres. */
export type ShardGeo = [number, number, number, number, number, number, number, number, number];

/** What the forward answer reads of a code's geodata: the geodata file's index, or a web tree's shard. */
export type CodeGeo = Pick<GeoIndex, 'slotOf' | 'point' | 'centroid' | 'bbox' | 'area'>;

/** Where the answers find the catalog and the geodata (the router's context). */
interface GeoContext {
  catalog: () => CatalogReader;
  /** The geodata, or why there is none ('' for a web tree exported without it). */
  geo?: (() => GeoIndex | CodeGeo | string) | undefined;
}

/** The context's geodata, or 113 saying why there is none. */
function geoOf(context: GeoContext): GeoIndex | CodeGeo | ErrorEnvelope {
  const geo = context.geo ? context.geo() : NO_GEODATA;
  return typeof geo === 'string' ? failureSaying(113, geo || `${NO_GEODATA} (y exporte el árbol web de nuevo)`) : geo;
}

/** Why a web tree answers no reverse geocoding: 113's detail. */
const NO_REVERSE_IN_TREE = 'un árbol web lleva el punto de cada cp, no sus polígonos: la geocodificación inversa necesita el servidor o la biblioteca';

/** A decimal number, an exponent allowed (a JavaScript number's text: 1e-7). */
const DECIMAL = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** `lat` and `lng` as numbers: 145 when one is missing, 146 when one is not a decimal number, 147 out of range. */
export function checkCoordinates(lat: string | undefined, lng: string | undefined, token: string): GeocodingReverseRequest | ErrorCode {
  if (lat === undefined || lng === undefined || lat.trim() === '' || lng.trim() === '') return 145;
  if (!DECIMAL.test(lat.trim()) || !DECIMAL.test(lng.trim())) return 146;
  const y = Number(lat);
  const x = Number(lng);
  if (!(Math.abs(y) <= 90) || !(Math.abs(x) <= 180)) return 147;
  return { method: 'info_cp_geocoding_reverse', token, lat: y, lng: x };
}

/** The place of a code as simplified info_cp gives it; empty where the catalog lacks the code (its polygon is newer). */
function place(catalog: CatalogReader, cp: string): SimplifiedPostalCodeRecord {
  const code = catalog.codeIndex(cp);
  return code < 0 ? { cp, asentamiento: [], tipo_asentamiento: '', municipio: '', estado: '', ciudad: '', pais: 'México' } : simplifiedRecord(catalog.codeEntry(code), cp).response;
}

export function answerGeocoding(context: GeoContext, cp: string): InfoCpGeocodingBody | ErrorCode | ErrorEnvelope {
  // The catalog first: the web client asks without one to learn what the answer needs.
  const catalog = context.catalog();
  const geo = geoOf(context);
  if ('error' in geo) return geo;
  const slot = geo.slotOf(cp);
  if (slot < 0) return catalog.codeIndex(cp) >= 0 ? 140 : 105;
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

const OUTSIDE: Readonly<Record<Outside, ErrorCode>> = { sea: 141, abroad: 142, 'not-loaded': 143, gap: 144 };

export function answerGeocodingReverse(context: GeoContext, lat: number, lng: number): InfoCpGeocodingReverseBody | ErrorCode | ErrorEnvelope {
  const catalog = context.catalog();
  const geo = geoOf(context);
  if ('error' in geo) return geo;
  if (!('locate' in geo)) return failureSaying(113, NO_REVERSE_IN_TREE);
  const slot = geo.locate(lat, lng);
  if (slot < 0) {
    const why = geo.outside(lat, lng);
    // Which states are loaded, so that the caller knows what a rebuild would add.
    return why === 'not-loaded' ? failureSaying(143, `los polígonos cargados son de ${geo.header.states.map((state) => state.estado).join(', ')}`) : OUTSIDE[why];
  }
  return success({ ...place(catalog, geo.codeAt(slot)), lat, lng });
}

/**
 * The points a web tree's shards carry (cpmx export web of an artifact with geodata), as the
 * forward answer reads geodata; '' for a tree exported without (113 says what to do). A code's
 * slot is its number.
 */
export function treeGeo(view: { codeIndex(cp: string): number; geoFacts(cp: string): ShardGeo | undefined }, exportedWithGeo: boolean): CodeGeo | string {
  if (!exportedWithGeo) return '';
  const facts = (slot: number) => view.geoFacts(String(slot).padStart(5, '0'))!;
  return {
    slotOf: (cp) => (view.codeIndex(cp) >= 0 && view.geoFacts(cp) ? Number(cp) : -1),
    point: (slot) => ({ lat: facts(slot)[0], lng: facts(slot)[1] }),
    centroid: (slot) => ({ lat: facts(slot)[2], lng: facts(slot)[3] }),
    bbox: (slot) => facts(slot).slice(4, 8) as [number, number, number, number],
    area: (slot) => facts(slot)[8],
  };
}

/** Test mode's answers (token `pruebas`): a fictitious point and place, in the real shapes. */
export function testGeocoding(cp: string): InfoCpGeocodingBody {
  return success({ ...testPlace(cp), calle: null, numero: null, geocoding: [{ lat: 0, lng: 0, label: `${cp}, Municipio de prueba, Estado de prueba`, precision: 'cp' }], area: { centroide: { lat: 0, lng: 0 }, bbox: [0, 0, 0, 0], m2: 0 } }) as InfoCpGeocodingBody;
}

export function testGeocodingReverse(lat: number, lng: number): InfoCpGeocodingReverseBody {
  return success({ ...testPlace('00001'), lat, lng });
}

function testPlace(cp: string): SimplifiedPostalCodeRecord {
  const names = [1, 2, 3].map((n) => `Asentamiento de prueba ${n}`);
  return { cp, asentamiento: names, tipo_asentamiento: 'Colonia', municipio: 'Municipio de prueba', estado: 'Estado de prueba', ciudad: 'Ciudad de prueba', pais: 'México' };
}
