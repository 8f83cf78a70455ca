/**
 * What a server tells about the catalog it answers from: its date, age and build id, when it
 * was loaded, and how the last reload and the last scheduled refresh went. One function for
 * /health and for monitoring (`GET /metrics` reads the same), free of `node:` so the fetch
 * handler's bundle can import it: a source that never reloads simply has no history.
 */
import { buildIdOf } from '../core/catalog.js';
import type { CorrectionsRecord, DroppedCorrection } from '../core/catalog-history.js';
import { catalogAge } from '../core/format.js';
import type { CatalogSource } from '../client/bytes-source.js';

/** One attempt to swap to the artifact at the served path (a signal, the file changing, a refresh). */
export interface ReloadOutcome {
  /** When it was made, ISO 8601 UTC. */
  at: string;
  /** What asked for it: `SIGHUP`, `file` (the file at the path changed) or `refresh`. */
  trigger: string;
  /** `swapped` to a new catalog, `unchanged` (the same build), or `refused` (the old one keeps serving). */
  result: 'swapped' | 'unchanged' | 'refused';
  /** Why it was refused; null otherwise. */
  reason: string | null;
  /** The build id served after it. */
  buildId: string | null;
}

/** One scheduled refresh: download, build, check, write, swap. */
export interface RefreshOutcome {
  at: string;
  /** `swapped`; `unchanged` (Correos published the same file); `refused` (the catalog failed a check); `failed` (download or write). */
  result: 'swapped' | 'unchanged' | 'refused' | 'failed';
  /** Why it was refused or failed; for a swap, null, or what the operator allowed (`--allow-older`: an older catalog taken). */
  reason: string | null;
  /** Codes in the downloaded catalog, and how many of the serving one's it lacks (null when not read that far). */
  codes: number | null;
  lost: number | null;
  /**
   * The served artifact's corrections that no longer applied to the downloaded catalog and were
   * dropped (each with why; the new artifact's header lists them too); null when not read that far.
   */
  droppedCorrections: DroppedCorrection[] | null;
  /** When the next refresh starts, ISO 8601 UTC. */
  nextAt: string | null;
}

/** How a server follows the file at its artifact's path (src/serve/reload.ts). */
export interface WatchStatus {
  /** Whether folder events are used; polling alone when not. */
  events: boolean;
  /** How often the path is looked at, events or not (milliseconds). */
  pollMs: number;
  /** What stops it following the file now (a folder that cannot be watched, a path that leads to no file); null when nothing does. */
  problem: string | null;
}

/** A source that can swap catalogs keeps its history; any other source has none. */
export interface ReloadHistory {
  /** When the catalog served was loaded, ISO 8601 UTC. */
  loadedAt(): string | null;
  lastReload(): ReloadOutcome | null;
  lastRefresh(): RefreshOutcome | null;
  /** How the file is followed; absent or null when it is not. */
  watching?(): WatchStatus | null;
}

export interface CatalogStatus {
  loaded: boolean;
  /** The catalog's own date (`source.date`), and whole days since. */
  catalogDate: string | null;
  catalogAgeDays: number | null;
  /** The artifact's build id (its payload's CRC-32, 8 hex digits) and build time. */
  buildId: string | null;
  builtAt: string | null;
  loadedAt: string | null;
  /** The operator's corrections the catalog served applies, and those dropped by refreshes (its header lists both); null when built without. */
  corrections: { applied: number; dropped: number } | null;
  lastReload: ReloadOutcome | null;
  lastRefresh: RefreshOutcome | null;
  /** How the file at the artifact's path is followed; null when it is not (no reloads, or not a server). */
  watch: WatchStatus | null;
}

/** The status of the catalog `source` serves, at `now` (epoch milliseconds). */
export function catalogStatus(source: CatalogSource & Partial<ReloadHistory>, now = Date.now()): CatalogStatus {
  const catalog = source.loaded();
  const age = catalog ? catalogAge(catalog.header, now) : { catalogDate: null, catalogAgeDays: null };
  return {
    loaded: catalog !== undefined,
    ...age,
    buildId: (catalog && buildIdOf(catalog)) ?? null,
    builtAt: catalog?.header.builtAt ?? null,
    loadedAt: source.loadedAt?.() ?? null,
    corrections: correctionCounts(catalog?.header.corrections),
    lastReload: source.lastReload?.() ?? null,
    lastRefresh: source.lastRefresh?.() ?? null,
    // A copy: the watcher changes its status in place.
    watch: watchCopy(source.watching?.() ?? null),
  };
}

function watchCopy(status: WatchStatus | null): WatchStatus | null {
  return status && { ...status };
}

function correctionCounts(record: CorrectionsRecord | undefined): CatalogStatus['corrections'] {
  return record ? { applied: record.applied.length, dropped: record.dropped?.length ?? 0 } : null;
}
