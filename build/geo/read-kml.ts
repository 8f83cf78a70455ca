/**
 * Correos de México's KML as it publishes it (one Placemark per code, the code in an
 * ExtendedData/SchemaData SimpleData `d_codigo` or in `<name>`, a Polygon or a MultiGeometry of
 * Polygons with outerBoundaryIs/innerBoundaryIs), turned into the GeoJSON FeatureCollection
 * read-geojson.ts checks, by @tmcw/togeojson over @xmldom/xmldom. Both are optional packages,
 * loaded only when a KML file is given. A KML file never needs a DTD: one that declares a
 * DOCTYPE or an entity is refused before it is parsed, so no entity is expanded (billion
 * laughs) and nothing outside the file is read (external entities); xmldom itself expands no
 * declared entity and fetches nothing.
 */
import type { Document, Element } from '@xmldom/xmldom';
import { GeoInputError } from './input-error.js';

/** The text of a KML file as a GeoJSON FeatureCollection (with the document's name); GeoInputError when it cannot be. */
export type KmlToGeoJson = (text: string, path: string) => unknown;

/** What to run when the optional packages are absent. */
export const KML_PACKAGES_MISSING =
  'reading KML needs the optional packages @tmcw/togeojson and @xmldom/xmldom (npm install @tmcw/togeojson @xmldom/xmldom), or the file converted to GeoJSON (ogr2ogr -f GeoJSON out.geojson FILE.kml)';

export function isKml(path: string): boolean {
  return /\.kml$/i.test(path);
}

interface GeoJsonGeometry {
  type: string;
  coordinates?: unknown;
  geometries?: GeoJsonGeometry[];
}

interface GeoJsonFeature {
  type: 'Feature';
  geometry: GeoJsonGeometry | null;
  properties: Record<string, unknown> | null;
}

/** The KML reader, its packages loaded now; GeoInputError naming them when they are not installed. */
export async function loadKmlReader(): Promise<KmlToGeoJson> {
  let togeojson: typeof import('@tmcw/togeojson');
  let xmldom: typeof import('@xmldom/xmldom');
  try {
    [togeojson, xmldom] = await Promise.all([import('@tmcw/togeojson'), import('@xmldom/xmldom')]);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new GeoInputError(KML_PACKAGES_MISSING);
    throw error;
  }
  return (text, path) => {
    const declaration = /<!(DOCTYPE|ENTITY)/i.exec(text);
    if (declaration) throw new GeoInputError(`${path}: declares ${declaration[1]!.toUpperCase()}, which a KML file never needs; refused (no entity is expanded, nothing outside the file is read)`);
    const onError = (level: string, message: string) => {
      if (level !== 'warning') throw new GeoInputError(`${path}: not well-formed XML (${message.split('\n')[0]})`);
    };
    let document: Document;
    try {
      document = new xmldom.DOMParser({ onError }).parseFromString(text, 'text/xml');
    } catch (error) {
      if (error instanceof GeoInputError) throw error;
      // xmldom wraps what onError throws in its own ParseError: its message keeps ours.
      throw new GeoInputError(`${path}: not well-formed XML (${(error as Error).message.split('\n')[0]})`);
    }
    if (document.documentElement?.localName !== 'kml') throw new GeoInputError(`${path}: not KML (its root element is ${document.documentElement?.localName ?? 'missing'}, not kml)`);
    const depth = elementDepth(document.documentElement);
    if (depth > MAX_DEPTH) throw new GeoInputError(`${path}: elements nested ${depth} deep; Correos' KML nests about 10, and more than ${MAX_DEPTH} is refused`);
    const features = (togeojson.kml(document as never).features as GeoJsonFeature[]).map(correosFeature);
    return { type: 'FeatureCollection', name: documentName(document), features };
  };
}

/**
 * Elements nested deeper than this are refused: togeojson reads MultiGeometry recursively, so a
 * file of 100,000 nested MultiGeometry would overflow the stack. Correos' KML nests about 10
 * (kml, Document, Folder, Placemark, MultiGeometry, Polygon, outerBoundaryIs, LinearRing, coordinates).
 */
const MAX_DEPTH = 64;

/** How deep elements nest under `root` (1 for the root alone), walked without recursion. */
function elementDepth(root: Element): number {
  let deepest = 0;
  const stack: [Element, number][] = [[root, 1]];
  while (stack.length) {
    const [element, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    for (let child = element.firstChild; child; child = child.nextSibling) if (child.nodeType === 1) stack.push([child as Element, depth + 1]);
  }
  return deepest;
}

/** A Placemark as read-geojson.ts reads Correos' features: `d_codigo` (else the Placemark's name), a Polygon or MultiPolygon. */
function correosFeature(feature: GeoJsonFeature): GeoJsonFeature {
  const properties = feature.properties ?? {};
  const d_codigo = properties.d_codigo ?? properties.name;
  const geometry = feature.geometry;
  // togeojson gives a MultiGeometry as a GeometryCollection: of Polygons only, it is a MultiPolygon.
  const multi = geometry?.type === 'GeometryCollection' && geometry.geometries?.every((part) => part.type === 'Polygon');
  return { type: 'Feature', properties: { d_codigo }, geometry: multi ? { type: 'MultiPolygon', coordinates: geometry.geometries!.map((part) => part.coordinates) } : geometry };
}

/** The name of the KML's Document (or first Folder, or Schema): `CP_09Cdmx_v11` carries the polygons' version. */
function documentName(document: Document): string | undefined {
  for (const tag of ['Document', 'Folder']) {
    const element = document.getElementsByTagName(tag)[0];
    for (let child = element?.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 1 && (child as Element).localName === 'name') return child.textContent?.trim();
    }
  }
  return document.getElementsByTagName('Schema')[0]?.getAttribute('name') ?? undefined;
}
