/**
 * The registry thread of a server worker: it owns the SQLite connection and runs each batch
 * of visits synchronously, so that waiting for another process's lock (up to the busy
 * timeout) or for the disk blocks this thread only, never the event loop that answers test
 * mode, /health and everything else. A file deleted, moved or replaced is noticed before each
 * batch and reopened (never recreated empty) once it is back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RegistryUnavailableError } from './errors.js';
import { failureOf, type Failure } from './failure.js';
import type { PanelMethod } from './panel-types.js';
import type { OpenedFiles } from './sqlite-file.js';
import { callPanel, SqliteStore } from './sqlite-panel.js';
import { thisProcess } from './owners.js';
import type { InFlight, VisitKind } from './types.js';

export interface ThreadData {
  path: string;
  busyTimeoutMs: number;
  /** The served registry's name in the journal of credits in flight. */
  owner: string;
}

export type ThreadRequest =
  | { type: 'visit'; id: number; batch: number; tokens: string[]; kinds: VisitKind[]; refs: (InFlight | undefined)[] }
  | { type: 'call'; id: number; method: PanelMethod; args: unknown[] }
  /** `forget`: what this process has left in the journal is answers written (see BatchedRegistry.settleAll). */
  | { type: 'close'; forget: boolean };

export type ThreadReply =
  | { type: 'done'; id: number; outcomes: number[]; lefts: (number | undefined)[] }
  | { type: 'failed'; id: number; message: string; failure: Failure }
  | { type: 'result'; id: number; value: unknown }
  | ({ type: 'opened' } & OpenedFiles)
  | { type: 'started' };

const { path, busyTimeoutMs, owner } = workerData as ThreadData;
const port = parentPort!;
let store: SqliteStore | undefined;

/** How often the owners are looked at for processes gone (a few system calls, no write unless one is). */
const SWEEP_EVERY_MS = 2000;
let swept = 0;
const me = thisProcess();

/**
 * Gives back the credits in flight of server processes gone (killed, crashed) since the last
 * look. Failing (a lock held) is no matter: the next batch looks again.
 */
function sweep(opened: SqliteStore): void {
  swept = performance.now();
  try {
    opened.register(owner, me);
    const given = opened.sweep(owner);
    if (given > 0) process.stderr.write(`cpmx serve: process ${process.pid}: gave back ${given} credit(s) of answers a server process that is gone had in flight\n`);
  } catch {
    swept = 0;
  }
}

/** The store to write to now; throws (RegistryUnavailableError, RegistryError) when there is none. */
function open(): SqliteStore {
  if (store) {
    const problem = store.problem();
    if (!problem) return store;
    if (problem.kind !== 'missing' && problem.kind !== 'replaced') throw new RegistryUnavailableError(problem.message);
    store.close();
    store = undefined;
  }
  // Batches wait out a lock in withStore; opening waits in SQLite (see the first open below).
  const opened = new SqliteStore(path, { busyTimeoutMs: 0, openTimeoutMs: busyTimeoutMs });
  store = opened;
  port.postMessage({ type: 'opened', ...opened.identity } satisfies ThreadReply);
  sweep(opened);
  const problem = opened.problem();
  if (problem) throw new RegistryUnavailableError(problem.message);
  return opened;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * One batch, waiting up to the busy timeout for another process's write lock. SQLite's own
 * busy handler sleeps 1, 2, 5, 10 ... up to 100 ms between tries, long after the lock is
 * free when the other side is a worker whose commit takes a millisecond; this thread may
 * block, so it tries again every quarter of a millisecond instead.
 */
function withStore<T>(work: (store: SqliteStore) => T): T {
  const deadline = performance.now() + busyTimeoutMs;
  for (;;) {
    try {
      return work(open());
    } catch (error) {
      if (failureOf(error, 'sqlite') !== 'retry' || performance.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 0.25);
    }
  }
}

port.on('message', (request: ThreadRequest) => {
  if (request.type === 'close') {
    try {
      if (request.forget) store?.forget(owner);
    } catch {
      // locked or gone: another server gives the rows back once this process has ended
    }
    store?.close();
    port.close();
    return;
  }
  if (request.type === 'call') {
    // The control panel's reads and writes, in the same thread as the batches: a locked file
    // delays a panel page as it delays a paying request, never the event loop.
    try {
      const value = withStore((opened) => callPanel(opened, request.method, request.args));
      port.postMessage({ type: 'result', id: request.id, value } satisfies ThreadReply);
    } catch (error) {
      port.postMessage({ type: 'failed', id: request.id, message: (error as Error).message, failure: failureOf(error, 'sqlite') } satisfies ThreadReply);
    }
    return;
  }
  try {
    const results = withStore((opened) => {
      if (performance.now() - swept > SWEEP_EVERY_MS) sweep(opened);
      return opened.visit(owner, request.batch, request.tokens, request.kinds, request.refs);
    });
    port.postMessage({ type: 'done', id: request.id, outcomes: results.map((r) => r.outcome), lefts: results.map((r) => r.left) } satisfies ThreadReply);
  } catch (error) {
    port.postMessage({ type: 'failed', id: request.id, message: (error as Error).message, failure: failureOf(error, 'sqlite') } satisfies ThreadReply);
  }
});

// Opened now, not at the first paying request: the -wal and -shm this connection will use are
// the ones beside the file as the server starts, so one deleted later is noticed by every
// worker. A worker that first opened after the deletion would make a fresh -shm and never see
// anything wrong (it answered 200 while the other worker answered 503). What fails here is
// reported by the first batch, as before. Workers start together, so one may find the file
// busy (another recovering the WAL): it waits for it as a batch would, never gives up at once
// to open only at its first paying request.
try {
  open();
} catch {
  // the first batch meets the same problem and answers 503 with it
}
port.postMessage({ type: 'started' } satisfies ThreadReply);
