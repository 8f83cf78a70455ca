/**
 * The one mapping from the names people give their columns and keys to the address fields:
 * used by `validateAddress` for a record's keys, by CSV headers and by NDJSON keys alike, so
 * the library and the command accept exactly the same names.
 */
import { foldAccents } from '../core/names.js';

/** The fields of an address record, in the order their errors are reported. */
export const FIELDS = Object.freeze(['cp', 'estado', 'municipio', 'asentamiento', 'ciudad'] as const);
export type Field = (typeof FIELDS)[number];

/** The fields in the order a CSV plan's `columns` and the reader's values hold them. */
export const COLUMN_SLOTS = Object.freeze(['cp', 'asentamiento', 'municipio', 'estado', 'ciudad'] as const satisfies readonly Field[]);

/**
 * Column (or key) names recognised for each field, folded as `foldColumn` folds them: the
 * contract's and COPOMEX's, SEPOMEX's catalog's (`d_codigo`, `d_asenta`, `D_mnpio`), INEGI's
 * DENUE's (`cod_postal`, `nomb_asent`, `entidad`), the forms spreadsheets write (`C.P.`,
 * `Delegación o Municipio`, `Entidad Federativa`) and English ones (`zip`, `postal_code`,
 * `neighborhood`, `state`, `city`). A locality (`localidad`) is no city: it is read only when
 * named with `--column ciudad=localidad`.
 */
export const COLUMN_NAMES: Readonly<Record<Field, readonly string[]>> = {
  cp: ['cp', 'codigo_postal', 'd_codigo', 'c_p', 'cod_postal', 'codigopostal', 'zip', 'zip_code', 'zipcode', 'postal_code', 'postcode'],
  asentamiento: ['asentamiento', 'colonia', 'd_asenta', 'nomb_asent', 'nombre_asentamiento', 'neighborhood', 'neighbourhood', 'settlement'],
  municipio: ['municipio', 'alcaldia', 'delegacion', 'd_mnpio', 'mpio', 'delegacion_o_municipio', 'alcaldia_o_municipio', 'municipio_o_alcaldia', 'municipio_o_delegacion', 'municipality'],
  estado: ['estado', 'd_estado', 'entidad', 'entidad_federativa', 'state'],
  ciudad: ['ciudad', 'd_ciudad', 'city'],
};
// Frozen, lists too: the exported names are how every caller's columns are read.
for (const names of Object.values(COLUMN_NAMES)) Object.freeze(names);
Object.freeze(COLUMN_NAMES);

/** Folds a column name: case, accents, and runs of spaces, dots, hyphens or underscores (none at its ends: `C.P.` is `c_p`). */
export function foldColumn(name: string): string {
  // Most names are already folded (lower-case ASCII words): no Unicode normalisation for them.
  if (/^[a-z0-9]+(?:_[a-z0-9]+)*$/.test(name)) return name;
  return foldAccents(name)
    .replace(/[\s._-]+/g, '_')
    .replace(/^_|_$/g, '');
}

/** Names remembered per matcher; past this (NDJSON with a new key on every line) names are folded each time. */
const REMEMBERED_NAMES = 256;
/** Longer names are never remembered: memory stays bounded by bytes, not by entries. */
const REMEMBERED_LENGTH = 64;

export type ColumnOverrides = Partial<Record<Field, string>>;

/** The field a column feeds, given the overrides; undefined for columns of no interest. */
export function columnMatcher(overrides: ColumnOverrides = {}): (name: string) => Field | undefined {
  const byName = new Map<string, Field>();
  for (const field of FIELDS) {
    const override = overrides[field];
    if (override !== undefined) byName.set(foldColumn(override), field);
  }
  for (const field of FIELDS) {
    if (overrides[field] !== undefined) continue;
    for (const name of COLUMN_NAMES[field]) if (!byName.has(name)) byName.set(name, field);
  }
  const seen = new Map<string, Field | null>();
  return (name) => {
    const known = seen.get(name);
    if (known !== undefined) return known ?? undefined;
    const field = byName.get(foldColumn(name));
    if (seen.size < REMEMBERED_NAMES && name.length <= REMEMBERED_LENGTH) seen.set(name, field ?? null);
    return field;
  };
}

/** A record's values, by field (undefined where the record has none). */
export type FieldValues = Record<Field, unknown>;

/**
 * Reads an object's keys as the address fields (the first key naming a field wins);
 * undefined when the value is not an object. Also gives which key fed each field, for `--fix`.
 */
export function recordMapper(overrides?: ColumnOverrides): (item: unknown, keys?: Partial<Record<Field, string>>) => FieldValues | undefined {
  const match = columnMatcher(overrides);
  return (item, keys) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
    const values: FieldValues = { cp: undefined, estado: undefined, municipio: undefined, asentamiento: undefined, ciudad: undefined };
    for (const key in item) {
      if (!Object.hasOwn(item, key)) continue;
      const field = match(key);
      if (field && values[field] === undefined) {
        values[field] = (item as Record<string, unknown>)[key];
        if (keys) keys[field] = key;
      }
    }
    return values;
  };
}
