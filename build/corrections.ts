/**
 * `cpmx build --corrections FILE`: an operator's fixes to a known SEPOMEX error, applied to the
 * catalog's rows before they are modelled, so that every way into cpmx answers the corrected
 * catalog. A CSV (UTF-8, header by name, see CORRECTION_COLUMNS), one correction a row. Every
 * row is checked against the catalog it patches; if any does not apply, none is: the build is
 * refused with every problem, each with its line.
 */
import type { CorrectionsRecord, DroppedCorrection } from '../src/core/catalog-history.js';
import { catalogType, catalogTypes, duplicatesMade, type FinalSettlement, findSettlement, sameName, settlementKey } from './correction-targets.js';
import { type CorrectionsFile, type Problem, refuse } from './corrections-file.js';
import { shown } from './name-rule.js';
import type { CatalogRow } from './reader.js';

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
  const types = catalogTypes(rows);
  /** A type the row gives, as the catalog spells it; undefined (a problem said) when it is none of the catalog's. */
  const typeOf = (line: number, column: string, given: string | undefined): string | undefined => {
    if (given === undefined) return undefined;
    const found = catalogType(types, column, given);
    if ('type' in found) return found.type;
    problems.push({ line, reason: found.reason });
    return undefined;
  };

  const findMunicipality = (line: number, estado: string, municipio: string): Municipality | undefined => {
    const state = [...municipalities.values()].filter((m) => sameName(m.state, estado) || (/^\d{1,2}$/.test(estado) && m.stateKey === Number(estado)));
    if (!state.length) {
      problems.push({ line, reason: `no state "${shown(estado)}" in the catalog` });
      return undefined;
    }
    const found = state.filter((m) => sameName(m.name, municipio) || (/^\d{1,3}$/.test(municipio) && m.key === Number(municipio)));
    if (found.length !== 1) {
      problems.push({ line, reason: found.length ? `"${municipio}" names ${found.length} municipalities of ${state[0]!.state}; give its key (c_mnpio)` : `no municipality "${municipio}" in ${state[0]!.state}` });
      return undefined;
    }
    return found[0];
  };

  // The codes the file adds are placed first, whatever line places them: a row before the placing one is not refused for it.
  for (const correction of corrections.rows) {
    const { line, action, cp } = correction;
    if (action !== 'add-settlement' || byCode.has(cp) || !correction.estado) continue;
    const municipality = findMunicipality(line, correction.estado, correction.municipio!);
    if (!municipality) continue;
    const city = correction.ciudad ?? '';
    const placed = newCodes.get(cp);
    if (!placed) newCodes.set(cp, { municipality, city, line });
    else if (placed.municipality !== municipality || placed.city !== city) {
      problems.push({ line, reason: `postal code ${cp} is placed otherwise on line ${placed.line}; every add-settlement of a new code gives the same estado, municipio and ciudad (or leaves them empty but on one row)` });
    }
  }

  for (const correction of corrections.rows) {
    const { line, action, cp } = correction;
    const codeRows = byCode.get(cp);
    if (action === 'add-settlement') {
      const placed = newCodes.get(cp);
      if (codeRows && correction.estado) {
        problems.push({ line, reason: `postal code ${cp} is in the catalog: add-settlement takes its place from it (leave estado, municipio and ciudad empty)` });
        continue;
      }
      const settlementType = typeOf(line, 'tipo_asentamiento', correction.tipo_asentamiento);
      if (!settlementType) continue;
      if (!codeRows && !placed) {
        if (correction.estado) continue; // its place was refused above

        problems.push({ line, reason: `no postal code ${cp} in the catalog: to add a code, give estado and municipio (and ciudad, if any)` });
        continue;
      }
      let place: { municipality: Municipality; city: string; cityKey: number | undefined };
      if (codeRows) {
        const first = rows[codeRows[0]!]!;
        // Its place as the catalog has it; a move of the code (on any line) moves it too.
        place = { municipality: municipalities.get(first.stateKey * 1000 + first.municipalityKey)!, city: first.city, cityKey: first.cityKey };
      } else {
        const { municipality, city } = placed!;
        place = { municipality, city, cityKey: city ? cityKeys.get(municipality.stateKey)?.get(city) : undefined };
      }
      const row: CatalogRow = {
        // A row a correction makes or changes carries the correction's line (the build names the corrections file for it).
        line,
        postalCode: cp,
        settlement: correction.asentamiento!,
        settlementType,
        municipality: place.municipality.name,
        state: place.municipality.state,
        city: place.city,
        stateKey: place.municipality.stateKey,
        municipalityKey: place.municipality.key,
        cityKey: place.cityKey,
      };
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
    // remove-settlement, rename-settlement: one settlement of the code, by name (then type, then id_asenta_cpcons for twins).
    const target = findSettlement(rows, codeRows, correction);
    if ('reason' in target) {
      problems.push({ line, reason: target.reason });
      continue;
    }
    const { index } = target;
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
    const newType = typeOf(line, 'nuevo_tipo_asentamiento', correction.nuevo_tipo_asentamiento);
    if (correction.nuevo_tipo_asentamiento !== undefined && !newType) continue;
    const change: Change = { line, settlement: correction.nuevo_asentamiento, settlementType: newType };
    const result = renamedRow(rows[index]!, change);
    if (settlementKey(result) === settlementKey(rows[index]!) && result.settlement === rows[index]!.settlement && result.settlementType === rows[index]!.settlementType) {
      problems.push({ line, reason: `the settlement "${rows[index]!.settlement}" of ${cp} already has that name and type` });
      continue;
    }
    renamed.set(index, change);
    touched.set(index, { line, what: action });
  }
  // Twice the same settlement in a code, decided on the codes' final settlements: the file is one set, not a sequence.
  for (const cp of new Set([...added.keys(), ...[...renamed.keys()].map((i) => rows[i]!.postalCode)])) {
    const settlements: FinalSettlement[] = [];
    for (const i of byCode.get(cp) ?? []) {
      if (removed.has(i)) continue;
      const change = renamed.get(i);
      const row = change ? renamedRow(rows[i]!, change) : rows[i]!;
      // A rename that keeps the folded name and type (a respelling) makes no settlement the code did not have.
      settlements.push(change && settlementKey(row) !== settlementKey(rows[i]!) ? { row, line: change.line, action: 'rename-settlement' } : { row });
    }
    for (const row of added.get(cp) ?? []) settlements.push({ row, line: row.line, action: 'add-settlement' });
    problems.push(...duplicatesMade(cp, settlements));
  }
  for (const [cp, move] of moved) {
    const left = byCode.get(cp)!.filter((i) => !removed.has(i));
    if (!left.length && !added.has(cp)) problems.push({ line: move.line, reason: `postal code ${cp} is moved, but every settlement of it is removed` });
  }
  if (problems.length) return { problems };
  // A code's added settlements in an order of their own (name, then type), not the file's: the same set gives the same catalog.
  for (const list of added.values()) list.sort((a, b) => compareText(settlementKey(a), settlementKey(b)) || compareText(a.settlement, b.settlement) || compareText(a.settlementType, b.settlementType));

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

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
