/**
 * What an artifact records beyond the catalog it was built from: the operator's corrections
 * (`cpmx build --corrections`, listed in the header) and the codes that earlier catalogs had
 * and this one lacks (`cpmx build --previous`, in the optional `history` section, read only
 * when a code's history is asked for, so that loading and lookups never pay for it).
 */

/** What a correction does; each names the columns it reads (README: Corrections). */
export const CORRECTION_ACTIONS = ['add-settlement', 'remove-settlement', 'rename-settlement', 'move-code-municipality', 'move-code-city'] as const;
export type CorrectionAction = (typeof CORRECTION_ACTIONS)[number];

/** One applied row of a corrections file, as the artifact records it (empty columns left out). */
export interface Correction {
  /** The row's line in the corrections file. */
  line: number;
  action: CorrectionAction;
  cp: string;
  asentamiento?: string;
  tipo_asentamiento?: string;
  /** The catalog's id of the settlement (its `id_asenta_cpcons`), to tell apart settlements of one code with the same name and type. */
  id_asenta_cpcons?: string;
  nuevo_asentamiento?: string;
  nuevo_tipo_asentamiento?: string;
  estado?: string;
  municipio?: string;
  ciudad?: string;
  /** The operator's reason, free text. */
  nota?: string;
}

/** The corrections an artifact was built with (its header's `corrections`). */
export interface CorrectionsRecord {
  /** The corrections file's name (no directory) and the sha256 of its bytes. */
  file: string;
  sha256: string;
  applied: Correction[];
  /**
   * Corrections a scheduled refresh (or `cpmx build --update`) no longer applied to a newer
   * catalog (its settlement now in the official file, its code gone, ...): each with why and the
   * date of the catalog it stopped applying to. Absent when none was dropped.
   */
  dropped?: DroppedCorrection[];
}

/** A correction that stopped applying: the row as recorded, why, and the catalog date it stopped at. */
export type DroppedCorrection = Correction & { reason: string; droppedAt: string | null };

/** An earlier catalog an artifact was compared with (`--previous`). */
export interface PreviousCatalog {
  file: string;
  sha256: string;
  /** The catalog's date (as `source.date` records it). */
  date: string;
  codes: number;
}

/** The header's summary of the history section. */
export interface HistorySummary {
  /** The earlier catalogs, oldest first. */
  previous: PreviousCatalog[];
  /** Codes earlier catalogs had that this one lacks. */
  retired: number;
  /** Codes this catalog has that the catalog before it lacked (in a state both cover). */
  added: number;
}

/** Where a retired code was, as the last catalog that had it says. */
export interface LastPlace {
  estado: string;
  c_estado: string;
  municipio: string;
  ciudad: string;
  asentamientos: string[];
}

/** A code that earlier catalogs had and this one lacks. */
export interface RetiredCode {
  /** The date of the first catalog without it (after the last one with it). */
  retiredSince: string;
  /** The date of the last catalog that had it. */
  lastSeen: string;
  lastPlace: LastPlace;
}

/** The `history` section's content (UTF-8 JSON). */
export interface HistoryData {
  /** The catalog's own date, the one the dates below are relative to. */
  catalogDate: string;
  retired: Record<string, RetiredCode>;
  /** Codes added since the catalog before this one: the date of the first catalog that had them. */
  added: Record<string, string>;
}

/**
 * A postal code's history as far as the artifact knows it (`codeHistory(cp)`):
 * - `current`: in this catalog; `since` is the date of the first catalog of the unbroken run
 *   that ends with this one when earlier catalogs lacked it, else null (as old as the earliest
 *   catalog known); `corrected` lists the corrections that touched it.
 * - `retired`: not in this catalog, in an earlier one: since when, and where it was.
 * - `never-existed`: in neither this catalog nor any earlier one it was built with
 *   (`catalogsKnown` says how many catalogs that covers: 1 when built without `--previous`).
 */
export type CodeHistory =
  | { cp: string; status: 'current'; since: string | null; catalogDate: string | null; corrected: Correction[] }
  | ({ cp: string; status: 'retired'; catalogDate: string | null } & RetiredCode)
  | { cp: string; status: 'never-existed'; catalogDate: string | null; catalogsKnown: number };

/** Reads a history section's bytes; throws when they are not one. */
export function parseHistory(bytes: Uint8Array, decode: (start: number, end: number) => string): HistoryData {
  const data = JSON.parse(decode(0, bytes.length)) as HistoryData;
  if (!data || typeof data !== 'object' || typeof data.retired !== 'object' || typeof data.added !== 'object' || data.retired === null || data.added === null) {
    throw new Error('the history section is not one');
  }
  return data;
}

/** What `codeHistory` reads of a loaded catalog (core/catalog.ts). */
interface HistorySource {
  readonly header: { source?: { date?: string }; corrections?: CorrectionsRecord; history?: HistorySummary };
  codeIndex(cp: string): number;
  history(): HistoryData | undefined;
}

/** The history of `cp` (5 ASCII digits) in `catalog`; throws a TypeError for anything else. */
export function codeHistoryOf(catalog: HistorySource, cp: string): CodeHistory {
  if (typeof cp !== 'string' || !/^\d{5}$/.test(cp)) throw new TypeError(`codeHistory: a postal code is 5 digits, got ${JSON.stringify(String(cp).slice(0, 20))}`);
  const { header } = catalog;
  const catalogDate = header.source?.date ?? null;
  const history = catalog.history();
  if (catalog.codeIndex(cp) >= 0) {
    const corrected = (header.corrections?.applied ?? []).filter((correction) => correction.cp === cp).map((correction) => ({ ...correction }));
    return { cp, status: 'current', since: history?.added[cp] ?? null, catalogDate, corrected };
  }
  const retired = history?.retired[cp];
  if (retired) return { cp, status: 'retired', catalogDate, ...structuredClone(retired) };
  return { cp, status: 'never-existed', catalogDate, catalogsKnown: 1 + (header.history?.previous.length ?? 0) };
}

/** "retired since 2019-03-01; last in Tuxtla Gutiérrez, Chiapas (Centro, ...)": how validation and parse say it. */
export function retiredReason(retired: RetiredCode): string {
  const { lastPlace: place } = retired;
  const where = [place.ciudad && place.ciudad !== place.municipio ? place.ciudad : '', place.municipio, place.estado].filter(Boolean).join(', ');
  const names = place.asentamientos.slice(0, 3).join(', ') + (place.asentamientos.length > 3 ? `, and ${place.asentamientos.length - 3} more` : '');
  return `retired since ${retired.retiredSince.slice(0, 10)}; last in ${where}${names ? ` (${names})` : ''}`;
}
