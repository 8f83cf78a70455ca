/**
 * What changed between two catalogs: states, municipalities, postal codes and their
 * settlements, as one change object a line (NDJSON), so a pipeline can update its own tables.
 *
 * Both sides are compared as loaded catalogs (src/core/catalog.ts), whether they were given
 * as an artifact or as a catalog file (compiled in memory first), so the comparison sees
 * exactly what the lookups answer. States and municipalities are matched by their keys
 * (`c_estado`, `c_mnpio`): the same key with another name is a rename. Settlements have no key
 * an artifact keeps, so within a code they are matched by name and type; what is left on both
 * sides is paired when the names are alike (see RENAME_SIMILARITY): a rename, else a removal
 * and an addition.
 */
import { distance } from 'fastest-levenshtein';
import type { Catalog } from '../src/core/catalog.js';
import type { Correction } from '../src/core/catalog-history.js';
import type { ArtifactHeader } from '../src/core/format.js';
import { foldAccents } from '../src/core/names.js';

/** Two leftover settlements of one code are a rename when their folded names are at least this alike (1 - distance / longer length). */
export const RENAME_SIMILARITY = 0.7;
/** Past this many leftover pairs in one code (after the pairs of equal names), no more are compared: the rest is removed and added. */
const MAX_PAIRS_COMPARED = 10_000;

interface Settlement {
  asentamiento: string;
  tipo_asentamiento: string;
}

interface StateRef {
  c_estado: string;
  estado: string;
}

interface MunicipalityRef {
  c_estado: string;
  c_mnpio: string;
  municipio: string;
}

export type Change =
  | ({ change: 'state-added' | 'state-removed' } & StateRef)
  | { change: 'state-renamed'; c_estado: string; from: string; to: string }
  | ({ change: 'municipality-added' | 'municipality-removed' } & MunicipalityRef & { estado: string })
  | { change: 'municipality-renamed'; c_estado: string; c_mnpio: string; estado: string; from: string; to: string }
  | { change: 'code-added' | 'code-removed'; cp: string; estado: string; municipio: string; ciudad: string; asentamientos: Settlement[] }
  | { change: 'code-state-changed'; cp: string; from: StateRef; to: StateRef }
  | { change: 'code-municipality-changed'; cp: string; from: MunicipalityRef; to: MunicipalityRef }
  | { change: 'code-city-changed'; cp: string; from: string; to: string }
  | ({ change: 'settlement-added' | 'settlement-removed'; cp: string } & Settlement)
  | { change: 'settlement-renamed'; cp: string; from: Settlement; to: Settlement }
  | { change: 'settlement-retyped'; cp: string; asentamiento: string; from: string; to: string };

export type ChangeKind = Change['change'];

/** A change to a code that a correction of either side touches names those corrections (`cpmx build --corrections`). */
export type AnnotatedChange = Change & { corrections?: { side: 'old' | 'new'; line: number; action: Correction['action'] }[] };

/** Every kind, in the order a diff lists them. */
export const CHANGE_KINDS: readonly ChangeKind[] = [
  'state-added',
  'state-removed',
  'state-renamed',
  'municipality-added',
  'municipality-removed',
  'municipality-renamed',
  'code-added',
  'code-removed',
  'code-state-changed',
  'code-municipality-changed',
  'code-city-changed',
  'settlement-renamed',
  'settlement-retyped',
  'settlement-removed',
  'settlement-added',
];

export interface DiffSide {
  file: string;
  sha256: string;
  catalogDate: string | null;
  codes: number;
  rows: number;
  /** The corrections the side was built with (`cpmx build --corrections`); empty when none. */
  corrections: Correction[];
}

export interface DiffSummary {
  change: 'summary';
  old: DiffSide;
  new: DiffSide;
  /** Changes listed before the summary. */
  changes: number;
  counts: Record<ChangeKind, number>;
}

/** What a diff did, for its bound to be checked: settlements matched by key, and pairs of leftover names compared by likeness. */
export interface DiffWork {
  settlementsKeyed: number;
  pairsCompared: number;
}

/** The changes from `old` to `next`: states, then municipalities, then codes ascending; `work` counts what was compared. */
export function* diffCatalogs(old: Catalog, next: Catalog, work: DiffWork = { settlementsKeyed: 0, pairsCompared: 0 }): Generator<AnnotatedChange> {
  yield* diffStates(old, next);
  yield* diffMunicipalities(old, next);
  const corrected = new Map<string, NonNullable<AnnotatedChange['corrections']>>();
  for (const [side, catalog] of [['old', old], ['new', next]] as const) {
    for (const { cp, line, action } of catalog.header.corrections?.applied ?? []) {
      let list = corrected.get(cp);
      if (!list) corrected.set(cp, (list = []));
      list.push({ side, line, action });
    }
  }
  for (const change of diffCodes(old, next, work)) {
    const corrections = 'cp' in change ? corrected.get(change.cp) : undefined;
    yield corrections ? { ...change, corrections } : change;
  }
}

/** The summary line for a diff whose changes were counted into `counts`. */
export function diffSummary(old: Catalog, next: Catalog, counts: Record<ChangeKind, number>): DiffSummary {
  const side = (header: ArtifactHeader): DiffSide => ({
    file: header.source.file,
    sha256: header.source.sha256,
    catalogDate: header.source.date ?? null,
    codes: header.codes,
    rows: header.rows,
    corrections: header.corrections?.applied ?? [],
  });
  const changes = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return { change: 'summary', old: side(old.header), new: side(next.header), changes, counts };
}

export function emptyCounts(): Record<ChangeKind, number> {
  return Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, 0])) as Record<ChangeKind, number>;
}

const two = (key: number) => String(key).padStart(2, '0');
const three = (key: number) => String(key).padStart(3, '0');

interface MunicipalityFacts {
  stateKey: number;
  key: number;
  name: string;
  state: string;
}

/** Municipalities by `c_estado * 1000 + c_mnpio`, in key order. */
function municipalities(catalog: Catalog): Map<number, MunicipalityFacts> {
  const byKey = new Map<number, MunicipalityFacts>();
  for (let m = 0; m < catalog.municipalityCount; m++) {
    const entry = catalog.municipalityEntry(m);
    byKey.set(entry.stateKey * 1000 + entry.key, entry);
  }
  return byKey;
}

function states(catalog: Catalog): Map<number, string> {
  const byKey = new Map<number, string>();
  for (const m of municipalities(catalog).values()) byKey.set(m.stateKey, m.state);
  return byKey;
}

/** Keys present on either side, ascending. */
function unionKeys<K extends number>(a: Map<K, unknown>, b: Map<K, unknown>): K[] {
  return [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
}

function* diffStates(old: Catalog, next: Catalog): Generator<Change> {
  const before = states(old);
  const after = states(next);
  for (const key of unionKeys(before, after)) {
    const from = before.get(key);
    const to = after.get(key);
    if (from === undefined) yield { change: 'state-added', c_estado: two(key), estado: to! };
    else if (to === undefined) yield { change: 'state-removed', c_estado: two(key), estado: from };
    else if (from !== to) yield { change: 'state-renamed', c_estado: two(key), from, to };
  }
}

function* diffMunicipalities(old: Catalog, next: Catalog): Generator<Change> {
  const before = municipalities(old);
  const after = municipalities(next);
  for (const id of unionKeys(before, after)) {
    const from = before.get(id);
    const to = after.get(id);
    const keys = { c_estado: two(Math.floor(id / 1000)), c_mnpio: three(id % 1000) };
    if (!from) yield { change: 'municipality-added', ...keys, estado: to!.state, municipio: to!.name };
    else if (!to) yield { change: 'municipality-removed', ...keys, estado: from.state, municipio: from.name };
    else if (from.name !== to.name) yield { change: 'municipality-renamed', ...keys, estado: to.state, from: from.name, to: to.name };
  }
}

function settlementsOf(catalog: Catalog, code: number): Settlement[] {
  const list: Settlement[] = [];
  for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) {
    list.push({ asentamiento: catalog.settlementName(s), tipo_asentamiento: catalog.settlementType(s) });
  }
  return list;
}

function codeRecord(catalog: Catalog, code: number, cp: string) {
  return { cp, estado: catalog.stateOf(code), municipio: catalog.municipalityOf(code), ciudad: catalog.cityOf(code), asentamientos: settlementsOf(catalog, code) };
}

function* diffCodes(old: Catalog, next: Catalog, work: DiffWork): Generator<Change> {
  const before = old.postalCodes();
  const after = next.postalCodes();
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const a = before[i];
    const b = after[j];
    if (b === undefined || (a !== undefined && a < b)) {
      yield { change: 'code-removed', ...codeRecord(old, i, a!) };
      i++;
    } else if (a === undefined || b < a) {
      yield { change: 'code-added', ...codeRecord(next, j, b) };
      j++;
    } else {
      yield* diffCode(old, i, next, j, a, work);
      i++;
      j++;
    }
  }
}

function* diffCode(old: Catalog, i: number, next: Catalog, j: number, cp: string, work: DiffWork): Generator<Change> {
  const from = old.municipalityEntry(old.municipalityIndexOf(i));
  const to = next.municipalityEntry(next.municipalityIndexOf(j));
  if (from.stateKey !== to.stateKey) {
    yield { change: 'code-state-changed', cp, from: { c_estado: two(from.stateKey), estado: from.state }, to: { c_estado: two(to.stateKey), estado: to.state } };
  }
  if (from.stateKey !== to.stateKey || from.key !== to.key) {
    const ref = (m: MunicipalityFacts) => ({ c_estado: two(m.stateKey), c_mnpio: three(m.key), municipio: m.name });
    yield { change: 'code-municipality-changed', cp, from: ref(from), to: ref(to) };
  }
  const [cityBefore, cityAfter] = [old.cityOf(i), next.cityOf(j)];
  if (cityBefore !== cityAfter) yield { change: 'code-city-changed', cp, from: cityBefore, to: cityAfter };
  if (sameSettlements(old, i, next, j)) return;
  yield* diffSettlements(cp, settlementsOf(old, i), settlementsOf(next, j), work);
}

/** The common case, checked without building anything: the same settlements in the same order. */
function sameSettlements(old: Catalog, i: number, next: Catalog, j: number): boolean {
  const start = old.settlementStartOf(i);
  const count = old.settlementEndOf(i) - start;
  const nextStart = next.settlementStartOf(j);
  if (next.settlementEndOf(j) - nextStart !== count) return false;
  for (let k = 0; k < count; k++) {
    if (old.settlementName(start + k) !== next.settlementName(nextStart + k) || old.settlementType(start + k) !== next.settlementType(nextStart + k)) return false;
  }
  return true;
}

const keyOf = (s: Settlement) => `${s.asentamiento}\u0000${s.tipo_asentamiento}`;

/** One code's settlement changes: exact matches dropped, then renames and retypes paired, the rest removed or added. */
function* diffSettlements(cp: string, before: Settlement[], after: Settlement[], work: DiffWork): Generator<Change> {
  // Exact (name, type) matches, as a multiset: a name listed twice must be matched twice.
  const unmatched = new Map<string, number>();
  for (const s of after) unmatched.set(keyOf(s), (unmatched.get(keyOf(s)) ?? 0) + 1);
  const removed: Settlement[] = [];
  for (const s of before) {
    const left = unmatched.get(keyOf(s)) ?? 0;
    if (left > 0) unmatched.set(keyOf(s), left - 1);
    else removed.push(s);
  }
  const added: Settlement[] = [];
  for (const s of after) {
    const left = unmatched.get(keyOf(s)) ?? 0;
    if (left > 0) {
      added.push(s);
      unmatched.set(keyOf(s), left - 1);
    }
  }

  const pairs = pairLeftovers(removed, added, work);
  const paired = new Set<Settlement>();
  for (const [from, to] of pairs) {
    paired.add(from).add(to);
    if (from.asentamiento === to.asentamiento) {
      yield { change: 'settlement-retyped', cp, asentamiento: from.asentamiento, from: from.tipo_asentamiento, to: to.tipo_asentamiento };
    } else {
      yield { change: 'settlement-renamed', cp, from, to };
    }
  }
  for (const s of removed) if (!paired.has(s)) yield { change: 'settlement-removed', cp, ...s };
  for (const s of added) if (!paired.has(s)) yield { change: 'settlement-added', cp, ...s };
}

/**
 * Pairs removed with added settlements, best first: the same name (a retype), then the same
 * folded name, then folded-name similarity from 1 down to RENAME_SIMILARITY; ties go to the
 * earlier ones. Pairs come out in the order of the removed settlements.
 *
 * Near-linear in the code's settlements: the first two steps match by key (each removed one
 * takes the earliest unpaired added one of its name, as the best-first order would); only
 * what is left after them is compared pair by pair, and only when that is at most
 * MAX_PAIRS_COMPARED pairs. `work` counts both.
 */
function pairLeftovers(removed: Settlement[], added: Settlement[], work: DiffWork): [Settlement, Settlement][] {
  if (!removed.length || !added.length) return [];
  const fold = (s: Settlement) => foldAccents(s.asentamiento).replace(/\s+/g, ' ').trim();
  const foldedRemoved = removed.map(fold);
  const foldedAdded = added.map(fold);
  /** The added settlement paired with each removed one (by index), or -1. */
  const partner = new Array<number>(removed.length).fill(-1);
  const usedAdded = new Uint8Array(added.length);
  for (const keyOf of [(s: Settlement) => s.asentamiento, (_: Settlement, i: number, folded: string[]) => folded[i]!]) {
    // Added settlements by key, each list ascending, read from a cursor that skips the paired ones.
    const byKey = new Map<string, { list: number[]; next: number }>();
    added.forEach((s, a) => {
      if (usedAdded[a]) return;
      const key = keyOf(s, a, foldedAdded);
      const group = byKey.get(key);
      if (group) group.list.push(a);
      else byKey.set(key, { list: [a], next: 0 });
    });
    removed.forEach((s, r) => {
      if (partner[r] !== -1) return;
      work.settlementsKeyed++;
      const group = byKey.get(keyOf(s, r, foldedRemoved));
      if (!group) return;
      while (group.next < group.list.length && usedAdded[group.list[group.next]!]) group.next++;
      if (group.next === group.list.length) return;
      const a = group.list[group.next++]!;
      partner[r] = a;
      usedAdded[a] = 1;
    });
  }
  const leftRemoved = removed.flatMap((_, r) => (partner[r] === -1 ? [r] : []));
  const leftAdded = added.flatMap((_, a) => (usedAdded[a] ? [] : [a]));
  if (leftRemoved.length && leftAdded.length && leftRemoved.length * leftAdded.length <= MAX_PAIRS_COMPARED) {
    const candidates: { score: number; r: number; a: number }[] = [];
    for (const r of leftRemoved) {
      const folded = foldedRemoved[r]!;
      for (const a of leftAdded) {
        work.pairsCompared++;
        const score = 1 - distance(folded, foldedAdded[a]!) / Math.max(folded.length, foldedAdded[a]!.length, 1);
        if (score >= RENAME_SIMILARITY) candidates.push({ score, r, a });
      }
    }
    candidates.sort((x, y) => y.score - x.score || x.r - y.r || x.a - y.a);
    for (const { r, a } of candidates) {
      if (partner[r] !== -1 || usedAdded[a]) continue;
      partner[r] = a;
      usedAdded[a] = 1;
    }
  }
  return removed.flatMap((from, r) => (partner[r] === -1 ? [] : [[from, added[partner[r]!]!] as [Settlement, Settlement]]));
}
