/**
 * The web tree (`cpmx export web DIR`): the catalog cut into small JSON files a browser, a
 * worker or an edge runtime fetches one by one from any static host. The exporter writes
 * these shapes and the web client reads them; nothing else does.
 *
 * Every file but the manifest is named `<part>.<crc32 hex>.json`, the CRC-32 of its bytes, so
 * a name never changes meaning (cache it forever) and a damaged copy is caught; the few a
 * first answer starts from are also under a direct name (`DIRECT_PART`). The names form
 * a tree of hashes: the manifest names the state list and one index per first digit of a code;
 * the state list names each state's file; a state's file names its municipalities' files; a
 * digit's index names its code shards (one per three-digit prefix). A file is trusted because
 * its parent names its hash, and the manifest (the only file without a hash in its name, served
 * without long caching) is the root.
 *
 * Answers are not rebuilt from these files by new code: the files hold what the catalog's own
 * methods return (`municipalitiesOf`, `codesOfState`, ...), and the web client answers through
 * the core's router over a view of them (src/web/view.ts).
 */
import type { ShardGeo } from '../core/geo/answers.js';

/** Identifies a cpmx web tree; a manifest without it is foreign. */
export const WEB_FORMAT = 'cpmx-web';
/** Bumped whenever a file's shape changes; the client refuses any other version (a stale tree). */
export const WEB_FORMAT_VERSION = 1;
/** The manifest's name in the tree: the one file without a hash, to serve with `Cache-Control: no-cache`. */
export const MANIFEST = 'manifest.json';

/** A file's name from its part (`e`, `s09`, `x09`, `m09-012`, `d0`, `k0`, `p09`, `c098`) and its CRC-32. */
export function treeFileName(part: string, hash: string): string {
  return `${part}.${hash}.json`;
}

/**
 * Parts a client can name before any file has arrived: the state list, a digit's index, a code
 * shard. The tree has each also under its direct name (`e.json`, `d0.json`, `c098.json`, the
 * same bytes), so a client fetches it at once, beside its parents rather than after them, and
 * uses it only if its CRC-32 is the one its parent names (else it reads the hashed name).
 * Direct names change meaning with each export: serve them, as the manifest, with `no-cache`.
 */
export const DIRECT_PART = /^(e|d[0-9]|c[0-9]{3})$/;

/** A part's direct name (see `DIRECT_PART`). */
export function directFileName(part: string): string {
  return `${part}.json`;
}

/** What a tree file's name looks like (hashed, or a direct name); anything else in an export's folder is not the export's. */
export const TREE_FILE = /^([a-z][0-9a-z-]*\.[0-9a-f]{8}|e|d[0-9]|c[0-9]{3})\.json$/;

/** A CRC-32 as the eight hex digits of a file name. */
export function hashText(crc: number): string {
  return crc.toString(16).padStart(8, '0');
}

/** `manifest.json`. */
export interface WebManifest {
  format: typeof WEB_FORMAT;
  version: number;
  /** The catalog the tree was exported from: what `cpmx status` says of the artifact. */
  catalog: {
    date: string | null;
    builtAt: string | null;
    rows: number;
    codes: number;
    states: number;
    municipalities: number;
  };
  /** The cpmx version that exported it. */
  cpmx: string;
  /** The hash of the state list (`e`). */
  estados: string;
  /** The hash of each first digit's index (`d0` to `d9`), by digit; a digit no code starts with is absent. */
  digits: Record<string, string>;
  /** Present when the shards carry each code's point (the artifact had geodata): the polygons' version. */
  geo?: { version: string | null };
}

/** `e`: the state list, with what `get_estados` and `get_estado_clave` answer. */
export interface StatesFile {
  /** `stateNames()`, by `c_estado`. */
  estado: string[];
  /** `stateKeysByName()`. */
  estado_clave: Record<string, string>;
  /** Each state's `c_estado`, as a number. */
  claves: number[];
  /** Each state's file hash (`s<clave>`). */
  files: string[];
  /** Each state's code list hash (`p<clave>`). */
  codes: string[];
  /** Each state's keys and cities hash (`x<clave>`). */
  keys: string[];
}

/** `s<clave>`: one state's municipalities, what a form's second select needs. */
export interface StateFile {
  /** `municipalitiesOf(state)`. */
  municipios: string[];
  /** Each municipality of the state in catalog order: its name (an index into `municipios`), its `c_mnpio` and its file's hash (`m<clave>-<c_mnpio>`). */
  entries: [name: number, key: number, hash: string][];
}

/** `x<clave>`: one state's keyed lists, apart from `s` so that a form does not fetch them. */
export interface StateKeysFile {
  /** `municipalityKeysOf(state)`. */
  municipio_clave: Record<string, string>;
  /** `citiesOf(state)`. */
  ciudad: string[];
}

/** `m<clave>-<c_mnpio>`: one municipality's codes and settlement names. */
export interface MunicipalityFile {
  /** `codesOfMunicipalities([m])`. */
  cp: string[];
  /** `settlementNamesOfMunicipalities([m])`. */
  colonia: string[];
}

/** `p<clave>` (a state's codes, `codesOfState`) and `k<digit>` (the codes starting with a digit, `codesStartingWith`). */
export interface CodeListFile {
  cp: string[];
}

/** `d<digit>`: the shards of the codes that start with one digit. */
export interface DigitFile {
  /** Each three-digit prefix that has codes, to its shard's hash (`c<prefix>`). */
  shards: Record<string, string>;
  /** The hash of the digit's code list (`k<digit>`). */
  codes: string;
}

/** Settlements one code may have: the web client numbers a settlement by its code's number times this, plus its place. */
export const SETTLEMENTS_PER_CODE = 4096;

/** One code in a shard: its last two digits, its municipality and city (indices into the shard's lists), and its settlements as name, type index pairs. */
export type ShardCode = [suffix: string, municipality: number, city: number, settlements: (string | number)[]];

/** `c<prefix>`: every code of one three-digit prefix, ascending, with what `info_cp` answers. */
export interface ShardFile {
  /** Municipalities the codes lie in: the state's name, the municipality's name. */
  municipios: [estado: string, municipio: string][];
  /** Cities (`""` for none). */
  ciudades: string[];
  /** Settlement types. */
  tipos: string[];
  cp: ShardCode[];
  /**
   * Present when the tree was exported from an artifact with geodata (cpmx build --geo): each
   * code's facts by its suffix, [point lat, point lng, centroid lat, centroid lng, west, south,
   * east, north, square metres], for info_cp_geocoding. Absent: no geodata (113).
   */
  geo?: Record<string, ShardGeo>;
}

export type { ShardGeo };
