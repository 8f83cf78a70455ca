/**
 * Issue 34, item 2: one rule says what a registry failure means (failure.ts), and the paying
 * path and the panel answer alike by it. A damaged registry (SQLITE_CORRUPT, SQLITE_NOTADB)
 * answered 503 to paying requests and 500 to panel pages; a broken constraint answered the
 * other way round. Now a damaged file is 503 on both (the store cannot answer; an operator
 * restores it), a broken constraint 500 on both (a bug, logged with its trace).
 */
import { closeSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../../src/registry/failure.js';
import { buildInto, FIXTURE, tempDir } from '../helpers.js';
import { send } from '../support/panel.js';
import { startServe, tokensOk, waitFor } from '../support/serve.js';

const dir = tempDir();
let dataPath: string;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
});

async function registry(name: string): Promise<{ path: string; token: string }> {
  const path = join(dir, name);
  const token = (await tokensOk(['create', '--registry', path, '--name', name, '--credits', '10'])).trim();
  return { path, token };
}

/** Overwrites the first page of each table named with bytes that are no b-tree page. */
function damage(path: string, tables: string[]): void {
  const db = new Database(path);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const roots = tables.map((table) => (db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(table) as { rootpage: number }).rootpage);
  db.close();
  const fd = openSync(path, 'r+');
  for (const root of roots) writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
  closeSync(fd);
}

/** The status of a paying request, and of the panel's log-in page (its first step reads and writes the registry). */
async function bothPaths(path: string, token: string, prepare: () => void, logged: RegExp[]): Promise<{ paying: number; panel: number }> {
  prepare();
  const served = await startServe(['--registry', path, '--data', dataPath, '--panel', '--registry-timeout', '500']);
  try {
    const paying = (await fetch(`${served.url}/query/info_cp/09810?token=${token}`, { headers: { Connection: 'close' } })).status;
    const panel = (await send(served.url, 'GET', '/panel/entrar')).status;
    for (const line of logged) await waitFor(() => line.test(served.output()), `the log to say ${line}`);
    return { paying, panel };
  } finally {
    await served.stop();
  }
}

describe('one meaning per registry failure, on the paying path and the panel alike', () => {
  it('SQLITE_CORRUPT: both answer 503', async () => {
    const { path, token } = await registry('damaged.db');
    const result = await bothPaths(path, token, () => damage(path, ['tokens', 'panel_secret']), [/the registry did not answer \(.*malformed/]);
    expect(result).toEqual({ paying: 503, panel: 503 });
  });

  it('SQLITE_NOTADB (the file replaced by one that is no database while serving): both answer 503', async () => {
    const { path, token } = await registry('replaced.db');
    const served = await startServe(['--registry', path, '--data', dataPath, '--panel', '--registry-timeout', '500']);
    try {
      expect((await fetch(`${served.url}/query/info_cp/09810?token=${token}`, { headers: { Connection: 'close' } })).status).toBe(200);
      writeFileSync(`${path}.new`, Buffer.alloc(8192, 0x5a));
      renameSync(`${path}.new`, path);
      expect((await fetch(`${served.url}/query/info_cp/09810?token=${token}`, { headers: { Connection: 'close' } })).status).toBe(503);
      expect((await send(served.url, 'GET', '/panel/entrar')).status).toBe(503);
    } finally {
      await served.stop();
    }
  });

  it('SQLITE_CONSTRAINT (a trigger refuses the write): both answer 500, with the error in the log', async () => {
    const { path, token } = await registry('constrained.db');
    const result = await bothPaths(path, token, () => {
      const db = new Database(path);
      db.exec(`CREATE TRIGGER no_spending BEFORE UPDATE ON accounts BEGIN SELECT RAISE(ABORT, 'credits frozen'); END;
        CREATE TRIGGER no_secret BEFORE INSERT ON panel_secret BEGIN SELECT RAISE(ABORT, 'secret frozen'); END;`);
      db.close();
    }, [/credits frozen/, /secret frozen/]);
    expect(result).toEqual({ paying: 500, panel: 500 });
  });
});

describe('failureOf reads the drivers\' real errors', () => {
  const caught = (work: () => unknown): unknown => {
    try {
      work();
    } catch (error) {
      return error;
    }
    throw new Error('expected a failure');
  };

  it('SQLite: busy is retry; read-only, damaged and not-a-database are unavailable; a constraint is a bug', () => {
    const { path } = { path: join(dir, 'codes.db') };
    const db = new Database(path);
    db.exec('CREATE TABLE t (x INTEGER CHECK (x > 0))');
    const busy = new Database(path, { timeout: 0 });
    db.exec('BEGIN IMMEDIATE');
    expect(failureOf(caught(() => busy.exec('BEGIN IMMEDIATE')), 'sqlite')).toBe('retry');
    db.exec('ROLLBACK');
    busy.close();
    expect(failureOf(caught(() => db.prepare('INSERT INTO t VALUES (0)').run()), 'sqlite')).toBe('bug');
    expect(failureOf(caught(() => db.prepare('SELECT nothing FROM t').run()), 'sqlite')).toBe('bug');
    db.close();
    const readOnly = new Database(path, { readonly: true });
    expect(failureOf(caught(() => readOnly.exec('INSERT INTO t VALUES (1)')), 'sqlite')).toBe('unavailable');
    readOnly.close();
    writeFileSync(join(dir, 'garbage.db'), Buffer.alloc(8192, 0x5a));
    const garbage = new Database(join(dir, 'garbage.db'));
    const notADatabase = caught(() => garbage.exec('SELECT * FROM sqlite_master'));
    expect((notADatabase as { code: string }).code).toBe('SQLITE_NOTADB');
    expect(failureOf(notADatabase, 'sqlite')).toBe('unavailable');
    garbage.close();
  });

  it('PostgreSQL SQLSTATEs and broken connections, by the tables', () => {
    const pgError = (code: string) => Object.assign(new Error(`failed (${code})`), { code });
    expect(failureOf(pgError('40P01'), 'postgres')).toBe('retry');
    expect(failureOf(pgError('57014'), 'postgres')).toBe('unavailable');
    expect(failureOf(pgError('53100'), 'postgres')).toBe('unavailable');
    expect(failureOf(pgError('XX001'), 'postgres')).toBe('unavailable');
    expect(failureOf(pgError('08006'), 'postgres')).toBe('in-doubt');
    expect(failureOf(pgError('57P01'), 'postgres')).toBe('in-doubt');
    expect(failureOf(pgError('ECONNRESET'), 'postgres')).toBe('in-doubt');
    expect(failureOf(pgError('ECONNREFUSED'), 'postgres')).toBe('unavailable');
    expect(failureOf(pgError('23505'), 'postgres')).toBe('bug');
    expect(failureOf(pgError('42P01'), 'postgres')).toBe('bug');
    // node-postgres says a connection ended mid-query with no code: the write may have committed.
    expect(failureOf(new Error('Connection terminated unexpectedly'), 'postgres')).toBe('in-doubt');
    expect(failureOf(new Error('Connection terminated unexpectedly'))).toBe('bug');
  });

  it('the registry\'s own errors, by name (each bundle has its own copy of the classes)', () => {
    expect(failureOf(Object.assign(new Error('x'), { name: 'RegistryUnavailableError' }))).toBe('unavailable');
    expect(failureOf(Object.assign(new Error('x'), { name: 'RegistryError' }))).toBe('refused');
    expect(failureOf(new TypeError('x'))).toBe('bug');
  });
});
