/**
 * `cpmx parse FILE` without `--column`: is FILE a CSV, and which of its columns holds the
 * addresses? A file named `.csv` or `.tsv`, or whose first line reads as a header (two or
 * more names, one of them a known column; or the one name of an address column), is a CSV;
 * its address column is found by name (`direccion`, `domicilio`, `address`, ...), or the
 * command refuses, listing the columns.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { InputError } from './errors.js';
import { COLUMN_NAMES, foldColumn } from './fields.js';
import { detectDelimiter } from './input.js';
import type { ParseCsv } from './read.js';

/** Column names that hold a whole one-line address, folded as `foldColumn` folds them. */
export const ADDRESS_COLUMN_NAMES: readonly string[] = [
  'direccion',
  'direccion_completa',
  'domicilio',
  'domicilio_completo',
  'domicilio_fiscal',
  'address',
  'full_address',
  'direccion_postal',
  'ubicacion',
];

const KNOWN_COLUMNS = new Set([...ADDRESS_COLUMN_NAMES, ...Object.values(COLUMN_NAMES).flat(), 'id', 'nombre', 'name', 'cliente', 'rfc', 'telefono', 'email']);

/** The first line of a file (at most 64 KB read), or undefined when it cannot be read or is no text. */
function firstLine(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(64 * 1024);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, read).toString('utf8').replace(/^\uFEFF/, '');
    const end = text.search(/\r|\n/);
    return end < 0 ? text : text.slice(0, end);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The names of a header line, or undefined when the line does not read as one. */
function headerNames(line: string, parse: ParseCsv): string[] | undefined {
  try {
    return parse(line, { delimiter: detectDelimiter(line), relax_quotes: true, relax_column_count: true })[0];
  } catch {
    return undefined;
  }
}

/**
 * The address column of FILE when FILE is a CSV (undefined when it is one address a line);
 * throws InputError, listing the columns, when it is a CSV without a column of that name.
 */
export function addressColumnOf(path: string, parse: ParseCsv): string | undefined {
  const line = firstLine(path);
  if (line === undefined) return undefined;
  const named = /\.(?:csv|tsv)$/i.test(path);
  const names = headerNames(line, parse);
  if (!names || names.length < 2) {
    // A CSV of one column, the addresses': its header is the column's name (no address is `direccion`).
    if (names?.length === 1 && ADDRESS_COLUMN_NAMES.includes(foldColumn(names[0]!))) return names[0];
    if (named) throw new InputError(`${path} is named as a CSV but its first line is no header: give one address a line, or a header and --column NAME`);
    return undefined;
  }
  const folded = names.map(foldColumn);
  if (!named && !folded.some((name) => KNOWN_COLUMNS.has(name))) return undefined;
  const found = names.filter((_, i) => ADDRESS_COLUMN_NAMES.includes(folded[i]!));
  if (found.length === 1) return found[0];
  const shown = names.map((name) => JSON.stringify(name.slice(0, 60))).join(', ');
  throw new InputError(
    found.length > 1
      ? `a CSV with several address columns (${found.map((name) => JSON.stringify(name)).join(', ')}): say which with --column NAME`
      : `a CSV whose header names no address column (it has: ${shown}): say which with --column NAME, or name it direccion, domicilio or address`,
  );
}
