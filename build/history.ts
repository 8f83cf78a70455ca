/**
 * `cpmx build --previous OLD...`: the codes earlier catalogs had and the one being built lacks
 * (retired, with the date of the first catalog without them and where the last one with them
 * put them), and the codes it has that an earlier one lacked (added, since when).
 *
 * Each catalog is dated by its `source.date` (the zip member's timestamp or the text file's
 * modification time; an artifact's own) and they are put in date order. A catalog says nothing
 * about the states it does not cover (a per-state download): a code counts as absent from a
 * catalog only when that catalog has its state, and as retired only when the catalog being built
 * has its state. An earlier artifact given as OLD brings its own history along, so monthly
 * builds need only the last artifact, not every catalog since the first (and a scheduled refresh
 * carries the served artifact's history forward by the same rule: build/carry-forward.ts).
 */
import { ENTRY_CIUDAD, ENTRY_ESTADO, ENTRY_MUNICIPIO, ENTRY_NAMES, entrySettlements, type Catalog } from '../src/core/catalog.js';
import type { HistoryData, HistorySummary, LastPlace, PreviousCatalog, RetiredCode } from '../src/core/catalog-history.js';
import { recordedTime } from '../src/core/format.js';
import { CatalogError } from './errors.js';

interface Dated {
  catalog: Catalog;
  /** How the user named it, for errors. */
  path: string;
  date: string;
  time: number;
  /** Its state keys. */
  states: Set<number>;
  /** Its codes' indices, by code. */
  codes: Map<string, number>;
}

function dated(catalog: Catalog, path: string, role: string): Dated {
  const date = catalog.header.source?.date;
  const time = date === undefined ? Number.NaN : recordedTime(date);
  if (date === undefined || Number.isNaN(time)) {
    throw new CatalogError(path, `has no date (${role} is dated by its zip member's timestamp or its file's modification time; a pipe has neither), so the codes it lacks cannot be dated`);
  }
  const codes = new Map(catalog.postalCodes().map((cp, i) => [cp, i] as const));
  return { catalog, path, date, time, states: new Set(Object.values(catalog.stateKeysByName()).map(Number)), codes };
}

function stateKeyOf(entry: Dated, code: number): number {
  return entry.catalog.municipalityEntry(entry.catalog.municipalityIndexOf(code)).stateKey;
}

function lastPlace(entry: Dated, code: number): LastPlace {
  const values = entry.catalog.codeEntry(code);
  const count = entrySettlements(values);
  return {
    estado: values[ENTRY_ESTADO]!,
    c_estado: String(stateKeyOf(entry, code)).padStart(2, '0'),
    municipio: values[ENTRY_MUNICIPIO]!,
    ciudad: values[ENTRY_CIUDAD]!,
    asentamientos: values.slice(ENTRY_NAMES, ENTRY_NAMES + count) as string[],
  };
}

/** The history of `current` against `previous` (paths for errors in `previousPaths`); throws CatalogError when a catalog has no date or is not older. */
export function catalogHistory(current: Catalog, currentPath: string, previous: readonly { catalog: Catalog; path: string }[]): { data: HistoryData; summary: HistorySummary } {
  const now = dated(current, currentPath, 'the catalog built');
  const earlier = previous.map(({ catalog, path }) => dated(catalog, path, 'an earlier catalog'));
  for (const entry of earlier) {
    if (entry.time >= now.time) {
      throw new CatalogError(entry.path, `is dated ${entry.date}, not before the catalog being built (${now.date}); only an older catalog's codes can be recorded as retired (--previous takes earlier catalogs)`);
    }
  }
  // Oldest first; the stable sort keeps the order given between catalogs of one date.
  earlier.sort((a, b) => a.time - b.time);
  const all = [...earlier, now];

  // What earlier artifacts recorded, newest last so that it wins.
  const inheritedRetired = new Map<string, RetiredCode>();
  const inheritedAdded = new Map<string, string>();
  for (const entry of earlier) {
    const history = entry.catalog.history();
    if (!history) continue;
    for (const [cp, retired] of Object.entries(history.retired)) inheritedRetired.set(cp, retired);
    for (const [cp, since] of Object.entries(history.added)) inheritedAdded.set(cp, since);
  }

  const retired: Record<string, RetiredCode> = {};
  const added: Record<string, string> = {};
  const everyCode = new Set<string>();
  for (const entry of all) for (const cp of entry.codes.keys()) everyCode.add(cp);
  for (const cp of [...everyCode].sort()) {
    // The state as the newest catalog having the code says.
    let newest = all.length - 1;
    while (!all[newest]!.codes.has(cp)) newest--;
    const state = stateKeyOf(all[newest]!, all[newest]!.codes.get(cp)!);
    if (!now.states.has(state)) continue;
    const relevant = all.filter((entry) => entry.states.has(state));
    if (now.codes.has(cp)) {
      // The start of the unbroken run of catalogs having it that ends with this one.
      let start = relevant.length - 1;
      while (start > 0 && relevant[start - 1]!.codes.has(cp)) start--;
      if (start > 0) added[cp] = relevant[start]!.date;
      else if (inheritedAdded.has(cp)) added[cp] = inheritedAdded.get(cp)!;
      continue;
    }
    let last = relevant.length - 1;
    while (!relevant[last]!.codes.has(cp)) last--;
    const seen = relevant[last]!;
    retired[cp] = { retiredSince: relevant[last + 1]!.date, lastSeen: seen.date, lastPlace: lastPlace(seen, seen.codes.get(cp)!) };
  }
  // Codes retired before every catalog given (known from an earlier artifact's history), unless they came back.
  for (const [cp, record] of inheritedRetired) {
    if (everyCode.has(cp) || !now.states.has(Number(record.lastPlace.c_estado))) continue;
    retired[cp] = record;
  }
  const sorted = Object.fromEntries(Object.entries(retired).sort(([a], [b]) => (a < b ? -1 : 1)));
  // The catalogs known: those given, and those an earlier artifact was itself compared with (so
  // that a history carried from artifact to artifact keeps counting them), once each, oldest first.
  const known = new Map<string, PreviousCatalog>();
  for (const entry of earlier) {
    for (const before of entry.catalog.header.history?.previous ?? []) known.set(before.sha256, before);
    const { file, sha256 } = entry.catalog.header.source;
    known.set(sha256, { file, sha256, date: entry.date, codes: entry.catalog.codeCount });
  }
  known.delete(current.header.source.sha256);
  const previousCatalogs = [...known.values()].sort((a, b) => recordedTime(a.date) - recordedTime(b.date));
  return {
    data: { catalogDate: now.date, retired: sorted, added },
    summary: { previous: previousCatalogs, retired: Object.keys(sorted).length, added: Object.keys(added).length },
  };
}
