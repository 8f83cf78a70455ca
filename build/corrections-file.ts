/**
 * A corrections file (`cpmx build --corrections FILE`) read and checked for form: a CSV (UTF-8,
 * header by name, see CORRECTION_COLUMNS), one correction a row, each row's columns as its action
 * needs them, every name by the catalog's name rule (build/name-rule.ts) and the note bounded.
 * Checking the rows against the catalog they patch is build/corrections.ts's.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { CORRECTION_ACTIONS, type Correction, type CorrectionAction } from '../src/core/catalog-history.js';
import { CatalogError } from './errors.js';
import { nameProblem, noteProblem, shown } from './name-rule.js';

/** The columns a corrections file may have (`action` and `cp` it must). */
export const CORRECTION_COLUMNS = [
  'action',
  'cp',
  'asentamiento',
  'tipo_asentamiento',
  'id_asenta_cpcons',
  'nuevo_asentamiento',
  'nuevo_tipo_asentamiento',
  'estado',
  'municipio',
  'ciudad',
  'nota',
] as const;
type Column = (typeof CORRECTION_COLUMNS)[number];
/** The columns that hold names: each must pass the catalog's name rule. */
const NAME_COLUMNS: readonly Column[] = ['asentamiento', 'tipo_asentamiento', 'nuevo_asentamiento', 'nuevo_tipo_asentamiento', 'estado', 'municipio', 'ciudad'];

/** Per action: the columns it requires, and those it may have besides (`nota` always may). */
const ACTION_COLUMNS: Record<CorrectionAction, { required: Column[]; optional: Column[] }> = {
  // estado and municipio (and ciudad) place a code the catalog lacks; an existing code keeps its place.
  'add-settlement': { required: ['asentamiento', 'tipo_asentamiento'], optional: ['estado', 'municipio', 'ciudad'] },
  // id_asenta_cpcons (the catalog's settlement id) tells apart twins: settlements of one code with the same name and type.
  'remove-settlement': { required: ['asentamiento'], optional: ['tipo_asentamiento', 'id_asenta_cpcons'] },
  'rename-settlement': { required: ['asentamiento'], optional: ['tipo_asentamiento', 'id_asenta_cpcons', 'nuevo_asentamiento', 'nuevo_tipo_asentamiento'] },
  'move-code-municipality': { required: ['estado', 'municipio'], optional: [] },
  'move-code-city': { required: ['ciudad'], optional: [] },
};

/** The most problems listed when a file is refused. */
const MAX_PROBLEMS = 20;
/** A corrections file is an operator's list, not a catalog. */
const MAX_BYTES = 16 * 1024 * 1024;

/** A corrections file read and checked for form (not yet against a catalog). */
export interface CorrectionsFile {
  path: string;
  file: string;
  sha256: string;
  /** The rows of a good form, checked against the catalog by applyCorrections. */
  rows: Correction[];
  /** The rows of a bad form, refused with the catalog's problems (so that one run lists all). */
  problems: Problem[];
}

/** Reads a corrections file and checks each row's form; throws CatalogError when the file itself is unreadable (its header, its encoding). */
export async function readCorrections(path: string): Promise<CorrectionsFile> {
  const file = basename(path);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new CatalogError(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (bytes.length > MAX_BYTES) throw new CatalogError(path, `is ${bytes.length} bytes, more than a corrections file may be (${MAX_BYTES})`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CatalogError(path, 'is not UTF-8 text (save the corrections file as UTF-8)');
  }
  const { parse } = await import('csv-parse/sync');
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, trim: true, info: true, relax_column_count: false }) as unknown as typeof records;
  } catch (error) {
    const { lines } = error as { lines?: number };
    throw new CatalogError(path, `is not readable CSV (${(error as Error).message})`, lines);
  }
  if (!records.length) throw new CatalogError(path, `is empty; it needs a header (${CORRECTION_COLUMNS.join(',')}) and one correction a row`);
  const header = records[0]!.record.map((name) => name.toLowerCase());
  const unknown = header.filter((name) => !(CORRECTION_COLUMNS as readonly string[]).includes(name));
  if (unknown.length) throw new CatalogError(path, `has unknown column(s) ${unknown.map((n) => `"${n}"`).join(', ')}; the columns are ${CORRECTION_COLUMNS.join(', ')}`, 1);
  const repeated = header.find((name, i) => header.indexOf(name) !== i);
  if (repeated) throw new CatalogError(path, `has the column "${repeated}" twice`, 1);
  for (const needed of ['action', 'cp'] as const) if (!header.includes(needed)) throw new CatalogError(path, `has no "${needed}" column`, 1);
  if (records.length === 1) throw new CatalogError(path, 'has a header but no corrections');

  const problems: Problem[] = [];
  const rows: Correction[] = [];
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    const value = (column: Column) => record[header.indexOf(column)] ?? '';
    const action = value('action') as CorrectionAction;
    if (!CORRECTION_ACTIONS.includes(action)) {
      problems.push({ line, reason: `unknown action "${shown(value('action'))}"; the actions are ${CORRECTION_ACTIONS.join(', ')}` });
      continue;
    }
    const cp = value('cp');
    if (!/^\d{5}$/.test(cp)) {
      problems.push({ line, reason: `cp "${shown(cp)}" is not a 5-digit postal code` });
      continue;
    }
    const { required, optional } = ACTION_COLUMNS[action];
    const row: Correction = { line, action, cp };
    for (const column of CORRECTION_COLUMNS.slice(2)) {
      const given = value(column);
      if (required.includes(column) && !given) problems.push({ line, reason: `${action} needs ${column}` });
      else if (given && !required.includes(column) && !optional.includes(column) && column !== 'nota') {
        problems.push({ line, reason: `${action} does not use ${column} (given "${shown(given)}"); leave it empty` });
      } else if (given) {
        const problem = columnProblem(column, given);
        if (problem) problems.push({ line, reason: `${column} "${shown(given)}" ${problem}` });
        // Kept even when refused, so that the row's other checks do not report it missing.
        (row as unknown as Record<string, string>)[column] = given;
      }
    }
    if (action === 'rename-settlement' && !row.nuevo_asentamiento && !row.nuevo_tipo_asentamiento) {
      problems.push({ line, reason: 'rename-settlement needs nuevo_asentamiento or nuevo_tipo_asentamiento (or both)' });
    }
    if (action === 'add-settlement' && row.ciudad && !row.municipio) problems.push({ line, reason: 'add-settlement takes ciudad only with estado and municipio, for a code the catalog lacks' });
    if (action === 'add-settlement' && Boolean(row.estado) !== Boolean(row.municipio)) problems.push({ line, reason: 'add-settlement takes estado and municipio together (to place a code the catalog lacks)' });
    if (!problems.length || problems[problems.length - 1]!.line !== line) rows.push(row);
  }
  return { path, file, sha256: createHash('sha256').update(bytes).digest('hex'), rows, problems };
}

/** Why a column's value cannot be taken, or undefined: names by the name rule, the note bounded, the settlement id a number. */
function columnProblem(column: Column, given: string): string | undefined {
  if (column === 'nota') return noteProblem(given);
  if (column === 'id_asenta_cpcons') return /^\d{1,6}$/.test(given) ? undefined : 'is not a settlement id (the catalog\'s id_asenta_cpcons: digits)';
  return NAME_COLUMNS.includes(column) ? nameProblem(given) : undefined;
}

export interface Problem {
  line: number;
  reason: string;
}

/** Throws one CatalogError listing the problems (the first one's line as its line), if any. */
export function refuse(path: string, problems: Problem[]): void {
  if (!problems.length) return;
  problems.sort((a, b) => a.line - b.line);
  const [first, ...rest] = problems;
  const more = rest.slice(0, MAX_PROBLEMS - 1).map((p) => `\n  line ${p.line}: ${p.reason}`);
  const left = problems.length > MAX_PROBLEMS ? `\n  (and ${problems.length - MAX_PROBLEMS} more)` : '';
  const count = problems.length > 1 ? ` (${problems.length} problems; no correction was applied)` : ' (no correction was applied)';
  throw new CatalogError(path, `${first!.reason}${count}${more.join('')}${left}`, first!.line);
}

