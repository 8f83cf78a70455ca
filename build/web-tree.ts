/**
 * The web tree of a loaded catalog (src/web/format.ts says what each file holds), made in
 * memory: file name → bytes, the manifest last. Every value is what the catalog's public
 * methods return, so the web client answers through the core with the same data the Node
 * client reads. `build/web-write.ts` puts it on disk.
 */
import type { Catalog } from '../src/core/catalog.js';
import { crc32 } from '../src/core/crc32.js';
import type { ArtifactHeader } from '../src/core/format.js';
import { VERSION } from '../src/version.js';
import type { CodeGeo } from '../src/core/geo/answers.js';
import type { GeoHeader } from '../src/core/geo/format.js';
import {
  DIRECT_PART,
  MANIFEST,
  SETTLEMENTS_PER_CODE,
  WEB_FORMAT,
  WEB_FORMAT_VERSION,
  directFileName,
  hashText,
  treeFileName,
  type CodeListFile,
  type DigitFile,
  type MunicipalityFile,
  type ShardCode,
  type ShardFile,
  type ShardGeo,
  type StateFile,
  type StateKeysFile,
  type StatesFile,
  type WebManifest,
} from '../src/web/format.js';

export interface WebTree {
  /** Every file by name, the manifest included. */
  files: Map<string, Uint8Array>;
  /** Direct names (`c098.json`) → the hashed file of the same bytes (`c098.<crc>.json`): see `DIRECT_PART`. */
  links: Map<string, string>;
  manifest: WebManifest;
}

const encoder = new TextEncoder();

/** Lists of the same strings (a shard's cities, types, municipalities) as indices into one list each. */
class Interned<T> {
  readonly list: T[] = [];
  private readonly ids = new Map<string, number>();
  id(value: T, key = String(value)): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.list.length;
      this.ids.set(key, id);
      this.list.push(value);
    }
    return id;
  }
}

/** The tree of `catalog`; with `geo`, each shard carries its codes' points (info_cp_geocoding in the browser). */
export function webTree(catalog: Catalog, header: ArtifactHeader, geo?: CodeGeo & { header: GeoHeader }): WebTree {
  const files = new Map<string, Uint8Array>();
  const links = new Map<string, string>();
  /** Adds a file (and its direct name, for the parts that have one); returns its hash. */
  const add = (part: string, content: unknown): string => {
    const bytes = encoder.encode(JSON.stringify(content));
    const hash = hashText(crc32(bytes));
    const name = treeFileName(part, hash);
    files.set(name, bytes);
    if (DIRECT_PART.test(part)) links.set(directFileName(part), name);
    return hash;
  };

  const names = catalog.stateNames();
  const stateKeys = catalog.stateKeysByName();
  const keyOf = (state: number) => stateKeys[names[state]!]!;
  const municipalitiesByState: number[][] = names.map(() => []);
  for (let m = 0; m < catalog.municipalityCount; m++) municipalitiesByState[catalog.stateOfMunicipality(m)]!.push(m);

  const stateHashes: string[] = [];
  const codeHashes: string[] = [];
  const keyHashes: string[] = [];
  names.forEach((_, state) => {
    const clave = keyOf(state);
    const municipios = catalog.municipalitiesOf(state).slice();
    const entries: StateFile['entries'] = municipalitiesByState[state]!.map((m) => {
      const { key, name } = catalog.municipalityEntry(m);
      const municipality: MunicipalityFile = { cp: catalog.codesOfMunicipalities([m]), colonia: catalog.settlementNamesOfMunicipalities([m]) };
      return [municipios.indexOf(name), key, add(`m${clave}-${String(key).padStart(3, '0')}`, municipality)];
    });
    stateHashes.push(add(`s${clave}`, { municipios, entries } satisfies StateFile));
    keyHashes.push(add(`x${clave}`, { municipio_clave: catalog.municipalityKeysOf(state), ciudad: catalog.citiesOf(state) } satisfies StateKeysFile));
    codeHashes.push(add(`p${clave}`, { cp: catalog.codesOfState(state) } satisfies CodeListFile));
  });
  const states: StatesFile = {
    estado: names.slice(),
    estado_clave: stateKeys,
    claves: names.map((_, state) => Number(keyOf(state))),
    files: stateHashes,
    codes: codeHashes,
    keys: keyHashes,
  };
  const estados = add('e', states);

  // Code shards, one per three-digit prefix, gathered per first digit.
  const digits: Record<string, string> = {};
  const codes = catalog.postalCodes();
  for (let digit = 0; digit <= 9; digit++) {
    const d = String(digit);
    const shards: Record<string, string> = {};
    for (let at = 0; at < codes.length; ) {
      const prefix = codes[at]!.slice(0, 3);
      let end = at;
      while (end < codes.length && codes[end]!.startsWith(prefix)) end++;
      if (prefix[0] === d) shards[prefix] = add(`c${prefix}`, shard(catalog, at, end, geo));
      at = end;
    }
    const list = catalog.codesStartingWith(d);
    if (!list.length) continue;
    const digitFile: DigitFile = { shards, codes: add(`k${d}`, { cp: list } satisfies CodeListFile) };
    digits[d] = add(`d${d}`, digitFile);
  }

  const manifest: WebManifest = {
    format: WEB_FORMAT,
    version: WEB_FORMAT_VERSION,
    catalog: {
      date: header.source?.date ?? null,
      builtAt: header.builtAt ?? null,
      rows: header.rows,
      codes: header.codes,
      states: header.states,
      municipalities: header.municipalities,
    },
    cpmx: VERSION,
    estados,
    digits,
    ...(geo ? { geo: { version: geo.header.version } } : {}),
  };
  files.set(MANIFEST, encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`));
  return { files, links, manifest };
}

/** The shard of code indices `start` to `end` (one three-digit prefix). */
function shard(catalog: Catalog, start: number, end: number, geo: CodeGeo | undefined): ShardFile {
  const municipalities = new Interned<[string, string]>();
  const cities = new Interned<string>();
  const types = new Interned<string>();
  const cp: ShardCode[] = [];
  for (let code = start; code < end; code++) {
    const estado = catalog.stateOf(code);
    const municipio = catalog.municipalityOf(code);
    if (catalog.settlementEndOf(code) - catalog.settlementStartOf(code) >= SETTLEMENTS_PER_CODE) {
      throw new RangeError(`code ${catalog.postalCode(code)} has ${SETTLEMENTS_PER_CODE} settlements or more, more than the web tree numbers`);
    }
    const settlements: (string | number)[] = [];
    for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) {
      settlements.push(catalog.settlementName(s), types.id(catalog.settlementType(s)));
    }
    cp.push([
      catalog.postalCode(code).slice(3),
      municipalities.id([estado, municipio], `${estado}\n${municipio}`),
      cities.id(catalog.cityOf(code)),
      settlements,
    ]);
  }
  const file: ShardFile = { municipios: municipalities.list, ciudades: cities.list, tipos: types.list, cp };
  if (geo) file.geo = shardGeo(catalog, start, end, geo);
  return file;
}

/** The geodata of a shard's codes that have an area. */
function shardGeo(catalog: Catalog, start: number, end: number, geo: CodeGeo): Record<string, ShardGeo> {
  const facts: Record<string, ShardGeo> = {};
  for (let code = start; code < end; code++) {
    const cp = catalog.postalCode(code);
    const slot = geo.slotOf(cp);
    if (slot < 0) continue;
    const point = geo.point(slot);
    const centroid = geo.centroid(slot);
    facts[cp.slice(3)] = [point.lat, point.lng, centroid.lat, centroid.lng, ...geo.bbox(slot), Math.round(geo.area(slot))];
  }
  return facts;
}
