/**
 * What a correction names in the catalog it patches, decided against the catalog as read (never
 * against another correction's result), so that a file applies as one set whatever the order
 * of its rows: which settlement a remove or rename means (by name, then type, then the
 * catalog's id `id_asenta_cpcons` for twins that share both), which type a new name takes (one
 * of the catalog's own, in its spelling), and which settlements the corrections together would
 * make twice within a code.
 */
import type { Correction } from '../src/core/catalog-history.js';
import { foldForMatch } from '../src/core/names.js';
import type { Problem } from './corrections-file.js';
import { shown } from './name-rule.js';
import type { CatalogRow } from './reader.js';

/** A settlement's identity within its code: its name and type, folded. */
export function settlementKey(row: CatalogRow): string {
  return `${foldForMatch(row.settlement)}\u0000${foldForMatch(row.settlementType)}`;
}

export function sameName(a: string, b: string): boolean {
  return foldForMatch(a) === foldForMatch(b);
}

function described(row: CatalogRow): string {
  return `"${row.settlement}" (${row.settlementType}${row.settlementId ? `, id ${row.settlementId}` : ''})`;
}

/** The settlement of a code that a remove or rename names (`index` into `rows`), or why there is not exactly one. */
export function findSettlement(rows: readonly CatalogRow[], codeRows: readonly number[], correction: Correction): { index: number } | { reason: string } {
  const { cp, asentamiento, tipo_asentamiento: type, id_asenta_cpcons: id } = correction;
  const wanted = foldForMatch(asentamiento!);
  const named = codeRows.filter((i) => foldForMatch(rows[i]!.settlement) === wanted);
  const typed = type ? named.filter((i) => sameName(rows[i]!.settlementType, type)) : named;
  const matches = id ? typed.filter((i) => rows[i]!.settlementId === id) : typed;
  if (matches.length === 1) return { index: matches[0]! };
  const name = `"${shown(asentamiento!)}"${type ? ` (${shown(type)})` : ''}`;
  if (!matches.length) {
    if (id && typed.length) return { reason: `postal code ${cp} has no settlement ${name} with id_asenta_cpcons ${id}; ${typed.length > 1 ? 'those named so are' : 'the one named so is'} ${typed.map((i) => described(rows[i]!)).join(', ')}` };
    const there = codeRows.map((i) => `"${rows[i]!.settlement}" (${rows[i]!.settlementType})`);
    return { reason: `postal code ${cp} has no settlement ${name}; it has ${there.slice(0, 10).join(', ')}${there.length > 10 ? ', ...' : ''}` };
  }
  const types = new Set(matches.map((i) => foldForMatch(rows[i]!.settlementType)));
  if (!type && types.size > 1) return { reason: `postal code ${cp} has ${matches.length} settlements named ${name}; give tipo_asentamiento to say which: ${matches.map((i) => described(rows[i]!)).join(', ')}` };
  const ids = new Set(matches.map((i) => rows[i]!.settlementId));
  if (ids.size === matches.length && !ids.has(undefined)) {
    return { reason: `postal code ${cp} has ${matches.length} settlements named ${name}; give id_asenta_cpcons to say which: ${matches.map((i) => described(rows[i]!)).join(', ')}` };
  }
  return { reason: `postal code ${cp} has ${matches.length} settlements named ${name} that the catalog gives no distinct id_asenta_cpcons; none of them can be corrected alone` };
}

/** The catalog's settlement types: folded → the catalog's spelling. */
export function catalogTypes(rows: readonly CatalogRow[]): Map<string, string> {
  const types = new Map<string, string>();
  for (const row of rows) {
    const folded = foldForMatch(row.settlementType);
    if (!types.has(folded)) types.set(folded, row.settlementType);
  }
  return types;
}

/** A type a correction gives a settlement, as the catalog spells it; or why it is not one of the catalog's. */
export function catalogType(types: ReadonlyMap<string, string>, column: string, given: string): { type: string } | { reason: string } {
  const type = types.get(foldForMatch(given));
  if (type !== undefined) return { type };
  return { reason: `${column} "${shown(given)}" is not a settlement type of the catalog; the types are ${[...types.values()].sort().join(', ')}` };
}

/** A settlement a code will have: the catalog's (no line) or one a correction adds or renames (its line and action). */
export interface FinalSettlement {
  row: CatalogRow;
  line?: number;
  action?: 'add-settlement' | 'rename-settlement';
}

/**
 * Each settlement the corrections would give a code twice (same folded name and type), as a
 * problem on the correction's line; the catalog's own twins are not the file's doing and stay.
 * Decided on the code's final settlements, so the order of the file's rows does not matter.
 */
export function duplicatesMade(cp: string, settlements: readonly FinalSettlement[]): Problem[] {
  const groups = new Map<string, FinalSettlement[]>();
  for (const settlement of settlements) {
    const key = settlementKey(settlement.row);
    const group = groups.get(key);
    if (group) group.push(settlement);
    else groups.set(key, [settlement]);
  }
  const problems: Problem[] = [];
  for (const group of groups.values()) {
    if (group.length < 2 || group.every((s) => s.line === undefined)) continue;
    // The catalog's first, then the corrections by line: each correction after the first is a duplicate of it.
    group.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    const [first, ...rest] = group;
    for (const settlement of rest) {
      const { row, line, action } = settlement;
      if (line === undefined) continue;
      const also = first!.line === undefined ? '' : `: line ${first!.line} ${first!.action === 'add-settlement' ? 'adds' : 'renames one to'} it too`;
      problems.push({ line, reason: `postal code ${cp} already has ${action === 'add-settlement' ? 'the' : 'a'} settlement "${row.settlement}" (${row.settlementType})${also}` });
    }
  }
  return problems;
}
