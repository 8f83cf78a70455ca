/**
 * The catalog `cpmx serve` answers from, which can be swapped for the artifact now at its path
 * (on SIGHUP, when the file changes, after a scheduled refresh). A swap is one assignment made
 * between requests: a request reads the catalog once (respond.ts pins it) and is answered wholly
 * from it, and whatever was made from the old catalog (ETags, cached bodies) is keyed by it.
 * A new file that cannot be read or decoded (damaged, another format, half-written, unreadable)
 * is refused, and the old catalog keeps serving.
 */
import { statSync } from 'node:fs';
import { ArtifactError, REBUILD, buildIdOf, type Catalog } from '../core/catalog.js';
import { loadCatalog } from '../client/catalog-source.js';
import type { CatalogSource } from '../client/bytes-source.js';
import type { RefreshOutcome, ReloadHistory, ReloadOutcome, WatchStatus } from '../http/catalog-status.js';
import { geoForCatalog } from '../client/geodata.js';

/** What identifies the file at a path: another file renamed over it, or it rewritten, changes it. */
export function fileIdentity(path: string): string | undefined {
  try {
    const stats = statSync(path);
    return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  } catch {
    return undefined;
  }
}

export class ServedCatalog implements CatalogSource, ReloadHistory {
  #catalog: Catalog | undefined;
  #loadedAt: string | null = null;
  /** The identity of the file as last read (loaded or refused): a change event that leaves it as it is needs no reload. */
  #identity: string | undefined;
  #lastReload: ReloadOutcome | null = null;
  #lastRefresh: RefreshOutcome | null = null;
  #watch: WatchStatus | null = null;

  constructor(readonly path: string) {}

  /** The catalog, loaded now if none is (a server started before its artifact was built); throws ArtifactError when it cannot be. */
  readonly get = (): Catalog => this.#catalog ?? this.#install(this.#read());

  readonly loaded = (): Catalog | undefined => this.#catalog;

  /** The geodata beside the artifact, read at the first geo call of each catalog loaded. */
  readonly geo = geoForCatalog;

  loadedAt(): string | null {
    return this.#loadedAt;
  }

  lastReload(): ReloadOutcome | null {
    return this.#lastReload;
  }

  lastRefresh(): RefreshOutcome | null {
    return this.#lastRefresh;
  }

  /** How the file at the path is followed (reload.ts keeps it up to date); null when it is not. */
  watching(): WatchStatus | null {
    return this.#watch;
  }

  recordWatch(status: WatchStatus): void {
    this.#watch = status;
  }

  recordRefresh(outcome: RefreshOutcome): void {
    this.#lastRefresh = outcome;
  }

  /** Whether the file at the path is another than the one last read. */
  changed(): boolean {
    return fileIdentity(this.path) !== this.#identity;
  }

  /** Reads the artifact at the path and swaps to it, or refuses it and keeps the catalog served. */
  reload(trigger: string): ReloadOutcome {
    const at = new Date().toISOString();
    const current = this.#catalog;
    let outcome: ReloadOutcome;
    try {
      const next = this.#read();
      const buildId = buildIdOf(next) ?? null;
      if (current && buildId !== null && buildId === buildIdOf(current)) {
        outcome = { at, trigger, result: 'unchanged', reason: null, buildId };
      } else {
        this.#install(next);
        outcome = { at, trigger, result: 'swapped', reason: null, buildId };
      }
    } catch (error) {
      if (!(error instanceof ArtifactError)) throw error;
      // What is wrong with the new file; how to build one is not news to whoever replaced it.
      const reason = `${error.path} ${error.reason.replace(`; ${REBUILD}`, '')}`;
      outcome = { at, trigger, result: 'refused', reason, buildId: (current && buildIdOf(current)) ?? null };
    }
    this.#lastReload = outcome;
    return outcome;
  }

  #read(): Catalog {
    // The identity before the bytes: a file replaced while it is read leaves a stale identity,
    // and the next change event reads it again.
    this.#identity = fileIdentity(this.path);
    return loadCatalog(this.path, { whole: true });
  }

  #install(catalog: Catalog): Catalog {
    this.#catalog = catalog;
    this.#loadedAt = new Date().toISOString();
    return catalog;
  }
}
