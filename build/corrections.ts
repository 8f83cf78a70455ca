/**
 * `cpmx build --corrections FILE`: an operator's fixes to a known SEPOMEX error, applied to the
 * catalog's rows before they are modelled, so that every way into cpmx answers the corrected
 * catalog. A CSV (UTF-8, header by name, see CORRECTION_COLUMNS), one correction a row. Every
 * row is checked against the catalog it patches; if any does not apply, none is: the build is
 * refused with every problem, each with its line.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { CORRECTION_ACTIONS, type Correction, type CorrectionAction, type CorrectionsRecord, type DroppedCorrection } from '../src/core/catalog-history.js';
import { foldForMatch } from '../src/core/names.js';
import { CatalogError } from './errors.js';
import type { CatalogRow } from './reader.js';

/** The columns a corrections file may have (`action` and `cp` it must). */
export const CORRECTION_COLUMNS = [
  'action',
  'cp',
  'asentamiento',
  'tipo_asentamiento',
  'nuevo_asentamiento',
  'nuevo_tipo_asentamiento',
  'estado',
  'municipio',
  'ciudad',
  'nota',
] as const;
type Column = (typeof CORRECTION_COLUMNS)[number];

/** Per action: the columns it requires, and those it may have besides (`nota` always may). */
const ACTION_COLUMNS: Record<CorrectionAction, { required: Column[]; optional: Column[] }> = {
  // estado and municipio (and ciudad) place a code the catalog lacks; an existing code keeps its place.
  'add-settlement': { required: ['asentamiento', 'tipo_asentamiento'], optional: ['estado', 'municipio', 'ciudad'] },
  'remove-settlement': { required: ['asentamiento'], optional: ['tipo_asentamiento'] },
  'rename-settlement': { required: ['asentamiento'], optional: ['tipo_asentamiento', 'nuevo_asentamiento', 'nuevo_tipo_asentamiento'] },
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
      problems.push({ line, reason: `unknown action "${value('action')}"; the actions are ${CORRECTION_ACTIONS.join(', ')}` });
      continue;
    }
    const cp = value('cp');
    if (!/^\d{5}$/.test(cp)) {
      problems.push({ line, reason: `cp "${cp}" is not a 5-digit postal code` });
      continue;
    }
    const { required, optional } = ACTION_COLUMNS[action];
    const row: Correction = { line, action, cp };
    for (const column of CORRECTION_COLUMNS.slice(2)) {
      const given = value(column);
      if (required.includes(column) && !given) problems.push({ line, reason: `${action} needs ${column}` });
      else if (given && !required.includes(column) && !optional.includes(column) && column !== 'nota') {
        problems.push({ line, reason: `${action} does not use ${column} (given "${given}"); leave it empty` });
      } else if (given) (row as unknown as Record<string, string>)[column] = given;
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

export interface Problem {
  line: number;
  reason: string;
}

/** Throws one CatalogError listing the problems (the first one's line as its line), if any. */
function refuse(path: string, problems: Problem[]): void {
  if (!problems.length) return;
  problems.sort((a, b) => a.line - b.line);
  const [first, ...rest] = problems;
  const more = rest.slice(0, MAX_PROBLEMS - 1).map((p) => `\n  line ${p.line}: ${p.reason}`);
  const left = problems.length > MAX_PROBLEMS ? `\n  (and ${problems.length - MAX_PROBLEMS} more)` : '';
  const count = problems.length > 1 ? ` (${problems.length} problems; no correction was applied)` : ' (no correction was applied)';
  throw new CatalogError(path, `${first!.reason}${count}${more.join('')}${left}`, first!.line);
}

interface Municipality {
  stateKey: number;
  key: number;
  state: string;
  name: string;
}

/** The correction that touched a settlement (removed or renamed it). */
interface Touched {
  line: number;
  what: string;
}

/**
 * The catalog's rows with `corrections` applied, in catalog order (rows of a code added by the
 * file at the code's place among the codes, ascending, as the official catalog is sorted);
 * throws CatalogError listing every row that does not apply. A code left without settlements
 * is gone from the catalog.
 */
export function applyCorrections(rows: readonly CatalogRow[], corrections: CorrectionsFile): { rows: CatalogRow[]; record: CorrectionsRecord } {
  const result = correct(rows, corrections);
  if ('problems' in result) refuse(corrections.path, result.problems);
  return result as { rows: CatalogRow[]; record: CorrectionsRecord };
}

/**
 * The corrections an artifact records, as a file read again (its rows passed their form check
 * when it was built): what a scheduled refresh and `cpmx build --update` re-apply to a newer
 * catalog. `where` names them in errors.
 */
export function recordedCorrections(record: CorrectionsRecord, where: string): CorrectionsFile {
  return { path: where, file: record.file, sha256: record.sha256, rows: record.applied.map((row) => ({ ...row })), problems: [] };
}

/**
 * `corrections` applied to a newer catalog, where some may no longer apply (Correos fixed the
 * error, the code is gone): those are dropped, each with its problem as the reason and
 * `catalogDate` as when, and the rest applied by the same rule as applyCorrections (dropping one
 * may change whether another applies, so it is checked again until all that are left apply).
 * The record lists the rows applied and, after `earlier` (the record's earlier drops), the dropped ones.
 */
export function reapplyCorrections(
  rows: readonly CatalogRow[],
  corrections: CorrectionsFile,
  catalogDate: string | null,
  earlier: readonly DroppedCorrection[] = [],
): { rows: CatalogRow[]; record: CorrectionsRecord; dropped: DroppedCorrection[] } {
  const dropped: DroppedCorrection[] = [];
  let kept = corrections.rows;
  for (;;) {
    const result = correct(rows, { ...corrections, rows: kept });
    if (!('problems' in result)) {
      const all = [...earlier, ...dropped];
      return { rows: result.rows, record: { ...result.record, ...(all.length ? { dropped: all } : {}) }, dropped };
    }
    const reasons = new Map<number, string>();
    for (const problem of result.problems) if (!reasons.has(problem.line)) reasons.set(problem.line, problem.reason);
    const left = kept.filter((row) => !reasons.has(row.line));
    // A problem on no row of the file (never expected) must not loop: refuse as a build does.
    if (left.length === kept.length) refuse(corrections.path, result.problems);
    for (const row of kept) if (reasons.has(row.line)) dropped.push({ ...row, reason: reasons.get(row.line)!, droppedAt: catalogDate });
    kept = left;
  }
}

/** The catalog's rows with `corrections` applied, or every problem found when any does not apply. */
function correct(rows: readonly CatalogRow[], corrections: CorrectionsFile): { rows: CatalogRow[]; record: CorrectionsRecord } | { problems: Problem[] } {
  const byCode = new Map<string, number[]>();
  const municipalities = new Map<number, Municipality>();
  const cityKeys = new Map<number, Map<string, number>>();
  rows.forEach((row, i) => {
    let list = byCode.get(row.postalCode);
    if (!list) byCode.set(row.postalCode, (list = []));
    list.push(i);
    const id = row.stateKey * 1000 + row.municipalityKey;
    if (!municipalities.has(id)) municipalities.set(id, { stateKey: row.stateKey, key: row.municipalityKey, state: row.state, name: row.municipality });
    if (row.city && row.cityKey !== undefined) {
      let keys = cityKeys.get(row.stateKey);
      if (!keys) cityKeys.set(row.stateKey, (keys = new Map()));
      const known = keys.get(row.city);
      if (known === undefined || row.cityKey < known) keys.set(row.city, row.cityKey);
    }
  });

  const problems: Problem[] = [...corrections.problems];
  const removed = new Set<number>();
  const renamed = new Map<number, Change>();
  /** Per row touched (remove or rename), the correction that did. */
  const touched = new Map<number, Touched>();
  const moved = new Map<string, { municipality?: Municipality; city?: string; line: number; cityLine?: number }>();
  const added = new Map<string, CatalogRow[]>();
  /** Codes the file adds, with the line of the first row that placed them. */
  const newCodes = new Map<string, { municipality: Municipality; city: string; line: number }>();
  /** Per code, the folded name and type of each settlement it will have, to refuse a duplicate. */
  const names = (cp: string): Set<string> => {
    const set = new Set<string>();
    for (const i of byCode.get(cp) ?? []) if (!removed.has(i)) set.add(settlementKey(renamedRow(rows[i]!, renamed.get(i))));
    for (const row of added.get(cp) ?? []) set.add(settlementKey(row));
    return set;
  };

  const findMunicipality = (line: number, estado: string, municipio: string): Municipality | undefined => {
    const state = [...municipalities.values()].filter((m) => sameName(m.state, estado) || (/^\d{1,2}$/.test(estado) && m.stateKey === Number(estado)));
    if (!state.length) {
      problems.push({ line, reason: `no state "${estado}" in the catalog` });
      return undefined;
    }
    const found = state.filter((m) => sameName(m.name, municipio) || (/^\d{1,3}$/.test(municipio) && m.key === Number(municipio)));
    if (found.length !== 1) {
      problems.push({ line, reason: found.length ? `"${municipio}" names ${found.length} municipalities of ${state[0]!.state}; give its key (c_mnpio)` : `no municipality "${municipio}" in ${state[0]!.state}` });
      return undefined;
    }
    return found[0];
  };

  for (const correction of corrections.rows) {
    const { line, action, cp } = correction;
    const codeRows = byCode.get(cp);
    if (action === 'add-settlement') {
      const placed = newCodes.get(cp);
      if (codeRows && correction.estado) {
        problems.push({ line, reason: `postal code ${cp} is in the catalog: add-settlement takes its place from it (leave estado, municipio and ciudad empty)` });
        continue;
      }
      if (!codeRows && !correction.estado && !placed) {
        problems.push({ line, reason: `no postal code ${cp} in the catalog: to add a code, give estado and municipio (and ciudad, if any)` });
        continue;
      }
      let place: { municipality: Municipality; city: string; cityKey: number | undefined };
      if (codeRows) {
        const first = rows[codeRows[0]!]!;
        // Its place as the catalog has it; a move of the code (on any line) moves it too.
        place = { municipality: municipalities.get(first.stateKey * 1000 + first.municipalityKey)!, city: first.city, cityKey: first.cityKey };
      } else {
        const municipality = correction.estado ? findMunicipality(line, correction.estado, correction.municipio!) : placed!.municipality;
        if (!municipality) continue;
        const city = correction.estado ? (correction.ciudad ?? '') : placed!.city;
        if (placed && correction.estado && (placed.municipality !== municipality || placed.city !== city)) {
          problems.push({ line, reason: `postal code ${cp} is placed otherwise on line ${placed.line}; every add-settlement of a new code gives the same estado, municipio and ciudad (or leaves them empty after the first)` });
          continue;
        }
        if (!placed) newCodes.set(cp, { municipality, city, line });
        place = { municipality, city, cityKey: city ? cityKeys.get(municipality.stateKey)?.get(city) : undefined };
      }
      const row: CatalogRow = {
        // A row a correction makes or changes carries the correction's line (the build names the corrections file for it).
        line,
        postalCode: cp,
        settlement: correction.asentamiento!,
        settlementType: correction.tipo_asentamiento!,
        municipality: place.municipality.name,
        state: place.municipality.state,
        city: place.city,
        stateKey: place.municipality.stateKey,
        municipalityKey: place.municipality.key,
        cityKey: place.cityKey,
      };
      if (names(cp).has(settlementKey(row))) {
        problems.push({ line, reason: `postal code ${cp} already has the settlement "${row.settlement}" (${row.settlementType})` });
        continue;
      }
      let list = added.get(cp);
      if (!list) added.set(cp, (list = []));
      list.push(row);
      continue;
    }
    if (!codeRows) {
      problems.push({ line, reason: newCodes.has(cp) ? `postal code ${cp} is added by this file (line ${newCodes.get(cp)!.line}); place it there, and name its settlements as they are to be` : `no postal code ${cp} in the catalog` });
      continue;
    }
    if (action === 'move-code-municipality' || action === 'move-code-city') {
      const move = moved.get(cp) ?? { line };
      const again = action === 'move-code-city' ? move.cityLine : move.municipality && move.line;
      if (again) {
        problems.push({ line, reason: `postal code ${cp} is already moved on line ${again}` });
        continue;
      }
      if (action === 'move-code-municipality') {
        const municipality = findMunicipality(line, correction.estado!, correction.municipio!);
        if (!municipality) continue;
        const first = rows[codeRows[0]!]!;
        if (first.stateKey === municipality.stateKey && first.municipalityKey === municipality.key) {
          problems.push({ line, reason: `postal code ${cp} is already in ${municipality.name}, ${municipality.state}` });
          continue;
        }
        move.municipality = municipality;
        move.line = line;
      } else {
        if (rows[codeRows[0]!]!.city === correction.ciudad) {
          problems.push({ line, reason: `postal code ${cp} is already in the city "${correction.ciudad}"` });
          continue;
        }
        move.city = correction.ciudad!;
        move.cityLine = line;
      }
      moved.set(cp, move);
      continue;
    }
    // remove-settlement, rename-settlement: one settlement of the code, by name (and type when two share it).
    const wanted = foldForMatch(correction.asentamiento!);
    const matches = codeRows.filter((i) => foldForMatch(rows[i]!.settlement) === wanted && (!correction.tipo_asentamiento || sameName(rows[i]!.settlementType, correction.tipo_asentamiento)));
    if (matches.length !== 1) {
      const there = codeRows.map((i) => `"${rows[i]!.settlement}" (${rows[i]!.settlementType})`);
      problems.push({
        line,
        reason: matches.length
          ? `postal code ${cp} has ${matches.length} settlements named "${correction.asentamiento}"; give tipo_asentamiento to say which`
          : `postal code ${cp} has no settlement "${correction.asentamiento}"${correction.tipo_asentamiento ? ` (${correction.tipo_asentamiento})` : ''}; it has ${there.slice(0, 10).join(', ')}${there.length > 10 ? ', ...' : ''}`,
      });
      continue;
    }
    const index = matches[0]!;
    const before = touched.get(index);
    if (before) {
      problems.push({ line, reason: `the settlement "${rows[index]!.settlement}" of ${cp} is already corrected on line ${before.line} (${before.what}); one correction a settlement` });
      continue;
    }
    if (action === 'remove-settlement') {
      removed.add(index);
      touched.set(index, { line, what: action });
      continue;
    }
    const change: Change = { line, settlement: correction.nuevo_asentamiento, settlementType: correction.nuevo_tipo_asentamiento };
    const result = renamedRow(rows[index]!, change);
    if (settlementKey(result) === settlementKey(rows[index]!) && result.settlement === rows[index]!.settlement && result.settlementType === rows[index]!.settlementType) {
      problems.push({ line, reason: `the settlement "${rows[index]!.settlement}" of ${cp} already has that name and type` });
      continue;
    }
    const others = names(cp);
    others.delete(settlementKey(rows[index]!));
    if (others.has(settlementKey(result))) {
      problems.push({ line, reason: `postal code ${cp} already has a settlement "${result.settlement}" (${result.settlementType})` });
      continue;
    }
    renamed.set(index, change);
    touched.set(index, { line, what: action });
  }
  for (const [cp, move] of moved) {
    const left = byCode.get(cp)!.filter((i) => !removed.has(i));
    if (!left.length && !added.has(cp)) problems.push({ line: move.line, reason: `postal code ${cp} is moved, but every settlement of it is removed` });
  }
  if (problems.length) return { problems };

  const out: CatalogRow[] = [];
  const pending = [...newCodes.keys()].sort();
  let next = 0;
  const placeNew = (until: string | undefined) => {
    while (next < pending.length && (until === undefined || pending[next]! < until)) out.push(...added.get(pending[next++]!)!);
  };
  /** A row of an existing code, placed where the file moves its code. */
  const placed = (row: CatalogRow): CatalogRow => {
    const move = moved.get(row.postalCode);
    let result = row;
    if (move?.municipality) {
      const m = move.municipality;
      // A code moved to another state keeps its city only if that state has one of that name.
      const city = m.stateKey === row.stateKey || cityKeys.get(m.stateKey)?.has(row.city) ? row.city : '';
      result = { ...result, line: move.line, stateKey: m.stateKey, municipalityKey: m.key, state: m.state, municipality: m.name, city, cityKey: city ? cityKeys.get(m.stateKey)?.get(city) : undefined };
    }
    if (move?.city !== undefined) result = { ...result, line: move.cityLine!, city: move.city, cityKey: cityKeys.get(result.stateKey)?.get(move.city) };
    return result;
  };
  rows.forEach((row, i) => {
    placeNew(row.postalCode);
    if (!removed.has(i)) out.push(placed(renamedRow(row, renamed.get(i))));
    const list = byCode.get(row.postalCode)!;
    if (i === list[list.length - 1]) out.push(...(added.get(row.postalCode) ?? []).map(placed));
  });
  placeNew(undefined);
  return { rows: out, record: { file: corrections.file, sha256: corrections.sha256, applied: corrections.rows } };
}

/** A rename: the correction's line, and the new name and type (either may be kept). */
interface Change {
  line: number;
  settlement?: string | undefined;
  settlementType?: string | undefined;
}

function renamedRow(row: CatalogRow, change: Change | undefined): CatalogRow {
  if (!change) return row;
  return { ...row, line: change.line, settlement: change.settlement ?? row.settlement, settlementType: change.settlementType ?? row.settlementType };
}

function settlementKey(row: CatalogRow): string {
  return `${foldForMatch(row.settlement)}\u0000${foldForMatch(row.settlementType)}`;
}

function sameName(a: string, b: string): boolean {
  return foldForMatch(a) === foldForMatch(b);
}
