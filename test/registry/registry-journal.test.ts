/**
 * Issue 22, items 2 and 5, on a real SQLite registry. Deleting the registry's `-wal` or `-shm`
 * while serving let thousands of answers out whose credits went to a file no other connection
 * reads (nothing logged, no 503): now paying requests answer 503 from the next batch on,
 * /health names the file, the log says so, and every answer given has its credit in the
 * registry. And a refund that meets another process's lock was dropped after one try: now it
 * is tried again, with backoff, until the lock is let go.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteThreadRegistry } from '../../src/registry/sqlite-thread.js';
import { buildInto, FIXTURE } from '../helpers.js';
import { startServe, tokensOk, waitFor, type Served } from '../support/serve.js';
import { creditsOf } from '../support/sqlite-registry.js';

const dir = mkdtempSync(join(tmpdir(), 'cpmx-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let dataPath: string;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
});

const PAID = (token: string) => `/query/info_cp/09810?token=${token}`;

async function registry(name: string, credits: number): Promise<{ path: string; token: string }> {
  const path = join(dir, name);
  const token = (await tokensOk(['create', '--registry', path, '--name', name, '--credits', String(credits)])).trim();
  return { path, token };
}

async function status(served: Served, path: string): Promise<number> {
  const response = await fetch(served.url + path, { headers: { Connection: 'close' } });
  await response.arrayBuffer();
  return response.status;
}

async function health(served: Served): Promise<{ registry: { state: string; problem: string | null } }> {
  return (await (await fetch(`${served.url}/health`, { headers: { Connection: 'close' } })).json()) as { registry: { state: string; problem: string | null } };
}

describe('the SQLite registry\'s -wal or -shm deleted while serving', () => {
  // Deleted after 20 paid answers, and before any: a worker that had answered none still
  // holds the files as they were at start (it once opened its connection only at its first
  // paying request, made a fresh -shm, saw nothing wrong and answered 200 beside a worker
  // answering 503: CI caught it when the kernel gave all 20 first requests to one worker).
  for (const [suffix, before] of [['-wal', 20], ['-shm', 20], ['-shm', 0]] as const) {
    it(`${suffix} after ${before} paid answers: paying requests answer 503 from then on, /health and the log name the file, every 200 has its credit`, async () => {
      const { path, token } = await registry(`journal${suffix}-${before}.db`, 1000);
      const served = await startServe(['--registry', path, '--data', dataPath, '--workers', '2']);
      let answered = 0;
      for (let i = 0; i < before; i++) if ((await status(served, PAID(token))) === 200) answered++;
      expect(answered).toBe(before);
      rmSync(path + suffix);
      const after: number[] = [];
      for (let i = 0; i < 20; i++) after.push(await status(served, PAID(token)));
      expect(after).toEqual(Array(20).fill(503));
      // Test mode needs no registry: still answered.
      expect(await status(served, '/query/info_cp/00001?token=pruebas')).toBe(200);
      const report = await health(served);
      expect(report.registry.state).toBe('unavailable');
      expect(report.registry.problem).toContain(`${path}${suffix} was deleted while the registry was open`);
      await waitFor(() => served.output().includes(`${suffix} was deleted while the registry was open`), 'the log to say what happened');
      expect(served.output()).toMatch(/the registry is unavailable/);
      expect(served.output()).not.toMatch(/\n\s+at /);
      expect(await served.stop()).toBe(0);
      // What was answered was paid for, and is in the registry once the server is gone.
      expect(creditsOf(path)).toEqual({ credits: 1000 - answered, spent: answered });
    });
  }
});

describe('a server thread whose first open meets a lock', () => {
  // Workers start together and open at once; one may find the file busy (another connection
  // recovering the WAL, or holding it exclusively). Its first open used to give up at once, so
  // it opened only at its first paying request: after a -shm deleted meanwhile, on a fresh
  // -shm of its own, answering 200 beside workers answering 503 (seen once under load).
  it('waits for the lock like any batch, so a -shm deleted after it started is noticed', async () => {
    const { path, token } = await registry('first-open.db', 10);
    const holder = new Database(path);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN IMMEDIATE; UPDATE accounts SET credits = credits; COMMIT');
    const served = new SqliteThreadRegistry(path, { timeoutMs: 5000 });
    try {
      // Held until the thread has opened (it waits, with the fix) or gave up (it did not,
      // before): a second at most, so a thread slow to start still meets the lock.
      await Promise.race([served.started, new Promise((resolve) => setTimeout(resolve, 1000))]);
      holder.close();
      await served.started;
      // Started means opened: the connection holds the -wal and -shm beside the file.
      expect(served.health().state).toBe('ok');
      expect(existsSync(`${path}-shm`)).toBe(true);
      rmSync(`${path}-shm`);
      // A paying request is refused (503), never answered on a -shm of this thread's own.
      await expect(served.consume(token)).rejects.toThrow(`${path}-shm was deleted while the registry was open`);
      expect(served.health().problem).toContain(`${path}-shm was deleted while the registry was open`);
    } finally {
      await served.close();
    }
  });
});

describe('a refund that meets another process\'s lock', () => {
  it('is tried again with backoff until the lock is let go, never dropped after one try', async () => {
    const { path, token } = await registry('refund.db', 10);
    const served = new SqliteThreadRegistry(path, { timeoutMs: 100 });
    try {
      for (let i = 0; i < 3; i++) expect(await served.consume(token)).toBe('spent');
      expect(creditsOf(path).credits).toBe(7);
      const holder = new Database(path);
      holder.exec('BEGIN IMMEDIATE');
      // Three answers never written: their credits come back.
      for (let i = 0; i < 3; i++) served.refund(token);
      // Each first try gives up on the lock (100 ms) and the registry says it is unavailable.
      await waitFor(() => served.health().state === 'unavailable', 'the refunds to meet the lock');
      holder.exec('COMMIT');
      holder.close();
      await waitFor(() => creditsOf(path).credits === 10, 'the refunds to be given back once the lock is let go');
    } finally {
      await served.close();
    }
    expect(creditsOf(path)).toEqual({ credits: 10, spent: 0 });
  });
});
