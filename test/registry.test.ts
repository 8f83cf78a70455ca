/**
 * One suite, both stores: the same promises from the SQLite file and from a real PostgreSQL
 * server. Management (what `cpmx tokens` does), the credit step as servers take it (batched
 * visits, from two "workers" at once), accounts that share credits, revocation, regenerated
 * tokens, disabled accounts, refunds, usage per day and the latest errors, and the schema's
 * version (a newer one is refused).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdmin, openServed } from '../src/registry/open.js';
import { SCHEMA_VERSION } from '../src/registry/schema.js';
import type { RegistryAdmin, ServedRegistry } from '../src/registry/types.js';
import { tempDir } from './helpers.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { tokens } from './support/serve.js';

const dir = tempDir();
let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startPostgres();
});

afterAll(async () => {
  await postgres?.destroy();
});

interface Store {
  name: string;
  /** A fresh, empty registry's location. */
  fresh(): Promise<string>;
  /** Sets the schema's version by hand, as a later cpmx would have. */
  setVersion(location: string, version: number): Promise<void>;
}

const STORES: Store[] = [
  {
    name: 'SQLite',
    fresh: async () => join(dir, `${randomUUID()}.db`),
    async setVersion(location, version) {
      const db = new Database(location);
      db.prepare('UPDATE schema_version SET version = ?').run(version);
      db.close();
    },
  },
  {
    name: 'PostgreSQL',
    fresh: () => postgres.createDatabase(`r_${randomUUID().replaceAll('-', '')}`),
    async setVersion(location, version) {
      const name = new URL(location).pathname.slice(1);
      await postgres.sql(name, 'UPDATE cpmx.schema_version SET version = $1', [version]);
    },
  },
];

describe.each(STORES)('the $name registry', (store) => {
  let location: string;
  let admin: RegistryAdmin;
  const served: ServedRegistry[] = [];

  beforeAll(async () => {
    location = await store.fresh();
    admin = await openAdmin(location, { create: true });
    // Two served registries on one store: what two server workers are.
    served.push(await openServed(location, { timeoutMs: 5000, poolSize: 4 }), await openServed(location, { timeoutMs: 5000, poolSize: 4 }));
  });

  afterAll(async () => {
    await Promise.all(served.map((registry) => registry.close()));
    await admin?.close();
  });

  it('creates projects with their own account and 50 credits, lists and finds them', async () => {
    const project = await admin.createProject({ name: 'Tienda en línea' });
    expect(project.token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(project).toMatchObject({ name: 'Tienda en línea', credits: 50, used: 0, revoked: false });
    expect(project.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const other = await admin.createProject({ name: 'Otra', credits: 7 });
    expect(other.account).not.toBe(project.account);
    const listed = await admin.list();
    expect(listed.map((p) => p.token)).toEqual(expect.arrayContaining([project.token, other.token]));
    expect(await admin.get(other.token)).toEqual(other);
    expect(await admin.get(randomUUID())).toBeUndefined();
  });

  it('spends credits one by one, says none are left, and knows no stranger', async () => {
    const { token } = await admin.createProject({ name: 'Poca', credits: 2 });
    const [a, b] = served as [ServedRegistry, ServedRegistry];
    expect(await a.credits(token)).toBe(2);
    expect(await a.consume(token)).toBe('spent');
    expect(await b.consume(token)).toBe('spent');
    expect(await a.consume(token)).toBe('none-left');
    expect(await b.credits(token)).toBe(0);
    expect(await a.consume('not-a-token')).toBe('unknown');
    expect(await a.credits('not-a-token')).toBeUndefined();
    // A NUL (%00 in a URL) cannot be in any token; the requests batched with it are answered.
    const [nul, , same] = await Promise.all([a.consume('x\u0000y'), a.credits('\u0000'), a.credits(token)]);
    expect([nul, same]).toEqual(['unknown', 0]);
    expect(await admin.get(token)).toMatchObject({ credits: 0, used: 2 });
  });

  it('never sells the last credits twice: 300 visits at once from two workers, 57 credits', async () => {
    const { token } = await admin.createProject({ name: 'Concurrida', credits: 57 });
    const outcomes = await Promise.all(Array.from({ length: 300 }, (_, i) => served[i % 2]!.consume(token)));
    expect(outcomes.filter((o) => o === 'spent')).toHaveLength(57);
    expect(outcomes.filter((o) => o === 'none-left')).toHaveLength(243);
    expect(await admin.get(token)).toMatchObject({ credits: 0, used: 57 });
    const usage = (await admin.usage(token, 1))!;
    expect(usage.days).toEqual([{ day: new Date().toISOString().slice(0, 10), requests: 300, credits: 57 }]);
    expect(usage.errors.reduce((sum, e) => sum + (e.code === 108 ? e.count : 0), 0)).toBe(243);
  });

  it('lets the projects of one account spend its credits', async () => {
    const first = await admin.createProject({ name: 'Web', credits: 3 });
    const second = await admin.createProject({ name: 'App', account: first.account });
    expect(second).toMatchObject({ account: first.account, credits: 3 });
    expect(await served[0]!.consume(second.token)).toBe('spent');
    expect(await served[1]!.consume(first.token)).toBe('spent');
    expect(await admin.get(first.token)).toMatchObject({ credits: 1, used: 1 });
    expect(await admin.get(second.token)).toMatchObject({ credits: 1, used: 1 });
    expect(await admin.credit(second.token, 10)).toBe(true);
    expect(await served[0]!.credits(first.token)).toBe(11);
  });

  it('refuses a revoked token, and an old token once regenerated; a disabled account’s tokens too', async () => {
    const project = await admin.createProject({ name: 'Rotada', credits: 10 });
    expect(await served[0]!.consume(project.token)).toBe('spent');
    const fresh = (await admin.regenerate(project.token))!;
    expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
    expect(await served[0]!.consume(project.token)).toBe('unknown');
    expect(await served[1]!.consume(fresh)).toBe('spent');
    expect(await admin.get(fresh)).toMatchObject({ credits: 8, used: 2, revoked: false });
    expect(await admin.regenerate(project.token)).toBeUndefined();
    expect(await admin.setDisabled(project.account, true)).toBe(true);
    expect(await served[0]!.consume(fresh)).toBe('unknown');
    expect(await served[0]!.credits(fresh)).toBeUndefined();
    expect(await admin.setDisabled(project.account, false)).toBe(true);
    expect(await served[0]!.consume(fresh)).toBe('spent');
    expect(await admin.revoke(fresh)).toBe(true);
    expect(await admin.revoke(fresh)).toBe(false);
    expect(await served[1]!.consume(fresh)).toBe('unknown');
    const usage = (await admin.usage(fresh, 30))!;
    // The project's usage, over both its tokens: 7 requests, 3 credits; a 107 for the old
    // token, two while the account was disabled and one after the revocation, newest first.
    expect(usage.days.at(-1)).toMatchObject({ requests: 7, credits: 3 });
    expect(usage.errors.map((e) => [e.code, e.token === fresh])).toEqual([
      [107, true],
      [107, true],
      [107, true],
      [107, false],
    ]);
    expect((await admin.list()).filter((p) => p.project === project.project)).toHaveLength(1);
  });

  it('gives back a refunded credit and takes it off the day’s usage', async () => {
    const { token } = await admin.createProject({ name: 'Reembolso', credits: 5 });
    expect(await served[0]!.consume(token)).toBe('spent');
    served[1]!.refund(token);
    // The next visit is batched after the refund: once it is answered, the refund is in.
    expect(await served[1]!.credits(token)).toBe(5);
    expect((await admin.usage(token, 1))!.days).toEqual([expect.objectContaining({ requests: 2, credits: 0 })]);
  });

  it('reports usage over a window of days, oldest first, today last', async () => {
    const { token } = await admin.createProject({ name: 'Ventana' });
    const usage = (await admin.usage(token, 30))!;
    expect(usage.days).toHaveLength(30);
    expect(usage.days.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(usage.days.every((d) => d.requests === 0 && d.credits === 0)).toBe(true);
    expect(usage).toMatchObject({ name: 'Ventana', credits: 50, errors: [] });
    expect(await admin.usage(randomUUID(), 30)).toBeUndefined();
  });

  it('is managed by `cpmx tokens` the same way', async () => {
    const token = (await tokens(['create', '--registry', location, '--name', 'Desde la CLI', '--credits', '4'])).stdout.trim();
    expect(await served[0]!.consume(token)).toBe('spent');
    const listed = JSON.parse((await tokens(['list', '--registry', location, '--json'])).stdout) as { token: string; credits: number; used: number }[];
    expect(listed.find((p) => p.token === token)).toMatchObject({ credits: 3, used: 1 });
    expect((await tokens(['credit', token, '6', '--registry', location])).stderr).toMatch(/Desde la CLI: 9 credits left/);
    const usage = JSON.parse((await tokens(['usage', token, '--registry', location, '--days', '7', '--json'])).stdout);
    expect(usage).toMatchObject({ name: 'Desde la CLI', credits: 9 });
    expect(usage.days).toHaveLength(7);
    expect(usage.days.at(-1)).toMatchObject({ requests: 1, credits: 1 });
    const text = (await tokens(['usage', token, '--registry', location, '--days', '2'])).stdout;
    expect(text).toMatch(/Desde la CLI: 9 credits left/);
    expect(text).toMatch(/total\s+1\s+1/);
    expect(await tokens(['revoke', token, '--registry', location])).toMatchObject({ code: 0 });
    const again = await tokens(['revoke', token, '--registry', location]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/holds no live token/);
    expect((await tokens(['usage', randomUUID(), '--registry', location])).code).toBe(1);
    expect((await tokens(['usage', '--registry', location])).code).toBe(2);
  });

  it('keeps its schema version, and refuses a newer one with what to do', async () => {
    const other = await store.fresh();
    const created = await openAdmin(other, { create: true });
    await created.createProject({ name: 'x' });
    await created.close();
    await store.setVersion(other, SCHEMA_VERSION + 1);
    const refused = await tokens(['list', '--registry', other]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`schema is version ${SCHEMA_VERSION + 1}, newer than this cpmx knows \\(${SCHEMA_VERSION}\\): upgrade cpmx`));
    const serve = await import('./support/serve.js');
    await expect(serve.startServe(['--registry', other])).rejects.toThrow(/newer than this cpmx knows/);
  });
});

describe('the SQLite registry of cpmx 0.1 (no schema version)', () => {
  it('is migrated: each project becomes an account of its own, credits, use and revocation kept', async () => {
    const path = join(dir, 'unversioned.db');
    const db = new Database(path);
    db.exec(`CREATE TABLE projects (token TEXT PRIMARY KEY, name TEXT NOT NULL, credits INTEGER NOT NULL CHECK (credits >= 0),
      used INTEGER NOT NULL DEFAULT 0, revoked INTEGER NOT NULL DEFAULT 0, created TEXT NOT NULL) STRICT`);
    const insert = db.prepare('INSERT INTO projects VALUES (?, ?, ?, ?, ?, ?)');
    insert.run('11111111-1111-4111-8111-111111111111', 'Vieja', 30, 20, 0, '2025-01-02T03:04:05.000Z');
    insert.run('22222222-2222-4222-8222-222222222222', 'Revocada', 5, 1, 1, '2025-02-02T03:04:05.000Z');
    db.close();
    const admin = await openAdmin(path);
    expect(await admin.list()).toEqual([
      { token: '11111111-1111-4111-8111-111111111111', name: 'Vieja', project: 1, account: 1, credits: 30, used: 20, revoked: false, created: '2025-01-02T03:04:05.000Z' },
      { token: '22222222-2222-4222-8222-222222222222', name: 'Revocada', project: 2, account: 2, credits: 5, used: 1, revoked: true, created: '2025-02-02T03:04:05.000Z' },
    ]);
    await admin.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare('SELECT version FROM schema_version').all()).toEqual([{ version: SCHEMA_VERSION }]);
    check.close();
  });

  it('is not created by anything but `cpmx tokens create`', async () => {
    const path = join(dir, 'never-made.db');
    const list = await tokens(['list', '--registry', path]);
    expect(list.code).toBe(2);
    expect(list.stderr).toMatch(/no registry there; `cpmx tokens create --registry .* --name NAME` creates one/);
    const serve = await import('./support/serve.js');
    await expect(serve.startServe(['--registry', `sqlite:${path}`])).rejects.toThrow(/no registry there/);
  });
});

describe('a PostgreSQL registry that cannot be reached', () => {
  it('is refused by `cpmx tokens` and by `cpmx serve` at start, saying where, without the password', async () => {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    const url = 'postgresql://cpmx:s3cret@127.0.0.1:1/cpmx';
    const list = await tokens(['list', '--registry', url]);
    expect(list.code).toBe(2);
    expect(list.stderr).toMatch(/cannot reach PostgreSQL at postgresql:\/\/cpmx@127\.0\.0\.1:1\/cpmx/);
    expect(list.stderr).not.toContain('s3cret');
    const serve = await import('./support/serve.js');
    const refused = serve.startServe(['--registry', url]);
    await expect(refused).rejects.toThrow(/exited 2 before listening: .*cannot reach PostgreSQL/s);
    await expect(refused).rejects.not.toThrow(/s3cret/);
  });
});
