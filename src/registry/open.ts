/**
 * Where a registry is, from `--registry` / CPMX_REGISTRY: `postgres://…` or `postgresql://…`
 * is a PostgreSQL database; `sqlite:PATH` or a plain path is a SQLite file. Each store's
 * module (and driver) is loaded only when that store is asked for.
 */
import { resolve } from 'node:path';
import type { AdminRegistry, PanelServedRegistry } from './panel-types.js';

export type RegistryLocation = { store: 'sqlite'; path: string } | { store: 'postgres'; url: string };

export function parseLocation(given: string): RegistryLocation {
  if (/^postgres(ql)?:\/\//i.test(given)) return { store: 'postgres', url: given };
  const path = given.replace(/^sqlite:(\/\/(?=\/))?/i, '');
  return { store: 'sqlite', path: resolve(path) };
}

export interface ServedOptions {
  /** How long a paying request may wait for the registry before it answers 503 (ms). */
  timeoutMs: number;
  /** PostgreSQL connections per server process. */
  poolSize: number;
}

export const DEFAULT_SERVED: ServedOptions = { timeoutMs: 2000, poolSize: 4 };

/** For `cpmx tokens`: `create` makes a SQLite file that does not exist yet; nothing else does. */
export async function openAdmin(given: string, options: { create?: boolean } = {}): Promise<AdminRegistry> {
  const location = parseLocation(given);
  if (location.store === 'postgres') {
    const { PostgresRegistry } = await import('./postgres.js');
    return new PostgresRegistry(location.url, { poolSize: 2 });
  }
  const { sqliteAdmin } = await import('./sqlite-panel.js');
  return sqliteAdmin(location.path, options.create ?? false);
}

/**
 * Checked once when `cpmx serve` starts: the registry exists, is reachable, and its schema is
 * created or migrated (or refused as too new). Throws RegistryError with what to do.
 */
export async function checkRegistry(given: string, options: ServedOptions = DEFAULT_SERVED): Promise<void> {
  const location = parseLocation(given);
  if (location.store === 'postgres') {
    const { PostgresRegistry } = await import('./postgres.js');
    const registry = new PostgresRegistry(location.url, { poolSize: 1, timeoutMs: options.timeoutMs });
    try {
      await registry.ensureSchema();
    } catch (error) {
      const { RegistryError } = await import('./errors.js');
      throw error instanceof RegistryError ? error : new RegistryError((error as Error).message);
    } finally {
      await registry.close();
    }
    return;
  }
  const { SqliteVisits } = await import('./sqlite.js');
  new SqliteVisits(location.path, { busyTimeoutMs: options.timeoutMs }).close();
}

/** The registry a server worker answers by. It never throws for an unavailable store: it answers 503 until the store is back. */
export async function openServed(given: string, options: ServedOptions = DEFAULT_SERVED): Promise<PanelServedRegistry> {
  const location = parseLocation(given);
  if (location.store === 'postgres') {
    const { PostgresRegistry } = await import('./postgres.js');
    const registry = new PostgresRegistry(location.url, { poolSize: options.poolSize, timeoutMs: options.timeoutMs, served: true });
    // Before serving: named in the registry, and what servers that are gone had in flight given back.
    await registry.start();
    return registry;
  }
  const { SqliteThreadRegistry } = await import('./sqlite-thread.js');
  const registry = new SqliteThreadRegistry(location.path, { timeoutMs: options.timeoutMs });
  // Serve only once the connection is open, so that every worker holds the -wal and -shm that
  // were there at start (see sqlite-worker.ts).
  await registry.started;
  return registry;
}
