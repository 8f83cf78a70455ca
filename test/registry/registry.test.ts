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
import { openAdmin, openServed } from '../../src/registry/open.js';
import type { AdminRegistry, PanelServedRegistry, PanelStore } from '../../src/registry/panel-types.js';
import { POSTGRES_MIGRATIONS, SCHEMA_VERSION, SQLITE_MIGRATIONS } from '../../src/registry/schema.js';
import { tempDir } from '../helpers.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { tokens } from '../support/serve.js';

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
  /** A fresh registry at schema version 1 (before the panel), made by hand, holding one project. */
  versionOne(): Promise<string>;
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
    async versionOne() {
      const location = join(dir, `${randomUUID()}.db`);
      const db = new Database(location);
      db.exec(`CREATE TABLE schema_version (version INTEGER NOT NULL) STRICT; INSERT INTO schema_version VALUES (1); ${SQLITE_MIGRATIONS[0]}`);
      db.exec("INSERT INTO accounts (id, name, credits) VALUES (1, 'Antes', 9); INSERT INTO projects (id, account_id, name) VALUES (1, 1, 'Antes'); INSERT INTO tokens (token, project_id) VALUES ('33333333-3333-4333-8333-333333333333', 1)");
      db.close();
      return location;
    },
  },
  {
    name: 'PostgreSQL',
    fresh: () => postgres.createDatabase(`r_${randomUUID().replaceAll('-', '')}`),
    async setVersion(location, version) {
      const name = new URL(location).pathname.slice(1);
      await postgres.sql(name, 'UPDATE cpmx.schema_version SET version = $1', [version]);
    },
    async versionOne() {
      const name = `r_${randomUUID().replaceAll('-', '')}`;
      const location = await postgres.createDatabase(name);
      await postgres.sql(
        name,
        `CREATE SCHEMA cpmx; CREATE TABLE cpmx.schema_version (version integer NOT NULL); INSERT INTO cpmx.schema_version VALUES (1); ${POSTGRES_MIGRATIONS[0]}
         WITH a AS (INSERT INTO cpmx.accounts (name, credits) VALUES ('Antes', 9) RETURNING id),
              p AS (INSERT INTO cpmx.projects (account_id, name) SELECT id, 'Antes' FROM a RETURNING id)
         INSERT INTO cpmx.tokens (token, project_id) SELECT '33333333-3333-4333-8333-333333333333', id FROM p`,
      );
      return location;
    },
  },
];

describe.each(STORES)('the $name registry', (store) => {
  let location: string;
  let admin: AdminRegistry;
  const served: PanelServedRegistry[] = [];

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
    const [a, b] = served as [PanelServedRegistry, PanelServedRegistry];
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
    // Refunded by the process that spent it (the journal's row is its own).
    served[0]!.refund(token);
    // The next visit is batched after the refund: once it is answered, the refund is in.
    expect(await served[0]!.credits(token)).toBe(5);
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

  describe('for the control panel', () => {
    /** The panel's store as `cpmx panel` has it, and as a server worker has it (SQLite: in the registry's thread). */
    const stores = (): [string, PanelStore][] => [
      ['managed', admin],
      ['served', served[0]!.panel],
    ];
    const email = () => `${randomUUID()}@ejemplo.mx`;

    it('creates accounts with an email and a password hash, once per email, and finds them', async () => {
      for (const [, panel] of stores()) {
        const address = email();
        const account = (await panel.createAccount({ email: address, name: 'Ana', passwordHash: 'scrypt$hash', credits: 50 }))!;
        expect(account).toMatchObject({ email: address, name: 'Ana', credits: 50, disabled: false, admin: false });
        expect(account.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(await panel.createAccount({ email: address, name: 'Otra', passwordHash: 'x', credits: 50 })).toBeUndefined();
        expect(await panel.credentials(address)).toEqual({ account, passwordHash: 'scrypt$hash' });
        expect(await panel.credentials(email())).toBeUndefined();
        expect(await panel.account(account.id)).toEqual(account);
        expect(await panel.setPassword(address, 'scrypt$other', true)).toMatchObject({ id: account.id, admin: true });
        expect((await panel.credentials(address))!.passwordHash).toBe('scrypt$other');
        expect(await panel.setPassword(email(), 'x', true)).toBeUndefined();
      }
    });

    it('lists accounts with their projects and credits used, page by page, and grants credits', async () => {
      const panel = served[0]!.panel;
      const account = (await panel.createAccount({ email: email(), name: 'Listada', passwordHash: 'x', credits: 3 }))!;
      const { token } = await panel.createProject({ name: 'Uno', account: account.id });
      await panel.createProject({ name: 'Dos', account: account.id });
      expect(await served[1]!.consume(token)).toBe('spent');
      expect(await panel.grant(account.id, 10)).toBe(true);
      expect(await panel.grant(999_999_999, 10)).toBe(false);
      const { total } = await admin.accounts(0, 1);
      const all = await admin.accounts(0, total);
      expect(all.accounts).toHaveLength(total);
      expect(all.accounts.find((a) => a.id === account.id)).toMatchObject({ name: 'Listada', credits: 12, projects: 2, used: 1 });
      const ids = all.accounts.map((a) => a.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect((await admin.accounts(1, 2)).accounts.map((a) => a.id)).toEqual(ids.slice(1, 3));
    });

    it('acts on a project only for the account it belongs to', async () => {
      for (const [, panel] of stores()) {
        const owner = (await panel.createAccount({ email: email(), name: 'Dueña', passwordHash: 'x', credits: 5 }))!;
        const stranger = (await panel.createAccount({ email: email(), name: 'Extraña', passwordHash: 'x', credits: 5 }))!;
        const project = await panel.createProject({ name: 'Mío', account: owner.id });
        expect(project).toMatchObject({ account: owner.id, credits: 5 });
        expect(await panel.projectsOf(owner.id)).toEqual([project]);
        expect(await panel.projectsOf(stranger.id)).toEqual([]);
        expect(await panel.projectOf(owner.id, project.project)).toEqual(project);
        expect(await panel.projectOf(stranger.id, project.project)).toBeUndefined();
        expect(await panel.renameProject(stranger.id, project.project, 'Robado')).toBe(false);
        expect(await panel.regenerateProject(stranger.id, project.project)).toBeUndefined();
        expect(await panel.projectUsage(stranger.id, project.project, 30)).toBeUndefined();
        expect(await panel.deleteProject(stranger.id, project.project)).toBe(false);
        expect(await panel.projectOf(owner.id, project.project)).toEqual(project);
        expect(await served[0]!.consume(project.token)).toBe('spent');

        expect(await panel.renameProject(owner.id, project.project, 'Renombrado')).toBe(true);
        const fresh = (await panel.regenerateProject(owner.id, project.project))!;
        expect(fresh).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(await served[1]!.consume(project.token)).toBe('unknown');
        expect(await served[1]!.consume(fresh)).toBe('spent');
        expect(await panel.projectOf(owner.id, project.project)).toMatchObject({ token: fresh, name: 'Renombrado', credits: 3, used: 2, revoked: false });
        const usage = (await panel.projectUsage(owner.id, project.project, 30))!;
        expect(usage.days.at(-1)).toMatchObject({ requests: 3, credits: 2 });
        expect(usage.errors.map((e) => [e.code, e.token])).toEqual([[107, project.token]]);
        // A project whose token an operator revoked: the panel still shows it, and a new token revives it.
        expect(await admin.revoke(fresh)).toBe(true);
        expect(await panel.projectOf(owner.id, project.project)).toMatchObject({ token: fresh, revoked: true });
        const revived = (await panel.regenerateProject(owner.id, project.project))!;
        expect(await served[0]!.consume(revived)).toBe('spent');

        expect(await panel.deleteProject(owner.id, project.project)).toBe(true);
        expect(await served[0]!.consume(revived)).toBe('unknown');
        expect(await panel.projectsOf(owner.id)).toEqual([]);
        expect(await panel.account(owner.id)).toMatchObject({ credits: 2 });
      }
    });

    it('keeps sessions until they expire, the account is disabled, or they are ended', async () => {
      for (const [, panel] of stores()) {
        const account = (await panel.createAccount({ email: email(), name: 'Sesiones', passwordHash: 'x', credits: 1 }))!;
        const { token } = await panel.createProject({ name: 'P', account: account.id });
        const now = Date.now();
        const [first, second] = [randomUUID(), randomUUID()];
        await panel.createSession(first, account.id, now, now + 1000);
        await panel.createSession(second, account.id, now, now + 1000);
        expect(await panel.session(first, now)).toEqual(account);
        expect(await panel.session(first, now + 1000)).toBeUndefined();
        expect(await panel.session(randomUUID(), now)).toBeUndefined();
        await panel.endSession(first);
        expect(await panel.session(first, now)).toBeUndefined();
        expect(await panel.session(second, now)).toEqual(account);
        expect(await panel.setDisabled(account.id, true)).toBe(true);
        expect(await served[1]!.consume(token)).toBe('unknown');
        expect(await panel.session(second, now)).toBeUndefined();
        expect(await panel.setDisabled(account.id, false)).toBe(true);
        // Disabling ended the session for good: enabling again does not bring it back.
        expect(await panel.session(second, now)).toBeUndefined();
        expect(await served[1]!.consume(token)).toBe('spent');
      }
    });

    it('makes a log-in’s session, ends the browser’s old one and forgets its attempts in one transaction', async () => {
      for (const [, panel] of stores()) {
        const account = (await panel.createAccount({ email: email(), name: 'Entrada', passwordHash: 'x', credits: 1 }))!;
        const now = Date.now();
        const key = { key: `cuenta:${randomUUID()}`, limit: 3, windowMs: 60_000 };
        const [old, fresh, other] = [randomUUID(), randomUUID(), randomUUID()];
        await panel.createSession(old, account.id, now, now + 60_000);
        await panel.createSession(other, account.id, now, now + 60_000);
        await panel.attempt([key], now);
        const right = (await panel.attempt([key], now))!;
        await panel.createSession(fresh, account.id, now, now + 60_000, { ends: old, forgets: right });
        expect(await panel.session(fresh, now)).toMatchObject({ id: account.id });
        expect(await panel.session(old, now)).toBeUndefined();
        // Only the browser's own session ends, and only the right attempt is forgotten: 1 + 1 more of 3.
        expect(await panel.session(other, now)).toMatchObject({ id: account.id });
        expect(await panel.attempt([key], now)).toHaveLength(1);
        expect(await panel.attempt([key], now)).toHaveLength(1);
        expect(await panel.attempt([key], now)).toBeUndefined();
        // A session id taken already fails the whole step: the old session and the attempts stay as they were.
        const second = { key: `cuenta:${randomUUID()}`, limit: 2, windowMs: 60_000 };
        const left = (await panel.attempt([second], now))!;
        await expect(panel.createSession(fresh, account.id, now, now + 60_000, { ends: other, forgets: left })).rejects.toThrow();
        expect(await panel.session(other, now)).toMatchObject({ id: account.id });
        expect(await panel.attempt([second], now)).toHaveLength(1);
        expect(await panel.attempt([second], now)).toBeUndefined();
      }
    });

    it('ends every session of an account whose password is set, promotes only when asked, and rehashes only from the hash it was given', async () => {
      for (const [, panel] of stores()) {
        const address = email();
        const account = (await panel.createAccount({ email: address, name: 'Clave', passwordHash: 'scrypt$vieja', credits: 1 }))!;
        const now = Date.now();
        const sessions = [randomUUID(), randomUUID()];
        for (const id of sessions) await panel.createSession(id, account.id, now, now + 60_000);
        expect(await panel.setPassword(address, 'scrypt$nueva', false)).toMatchObject({ id: account.id, admin: false });
        for (const id of sessions) expect(await panel.session(id, now)).toBeUndefined();
        await panel.createSession(sessions[0]!, account.id, now, now + 60_000);
        expect(await panel.rehashPassword(account.id, 'scrypt$vieja', 'scrypt$otra')).toBe(false);
        expect(await panel.rehashPassword(account.id, 'scrypt$nueva', 'scrypt$fuerte')).toBe(true);
        expect((await panel.credentials(address))!.passwordHash).toBe('scrypt$fuerte');
        // A rehash is the same password: the session stays.
        expect(await panel.session(sessions[0]!, now)).toMatchObject({ id: account.id });
      }
    });

    it('counts and makes a project in one step: creations at once stop at the limit', async () => {
      for (const [, panel] of stores()) {
        const account = (await panel.createAccount({ email: email(), name: 'Límite', passwordHash: 'x', credits: 1 }))!;
        const made = await Promise.all(Array.from({ length: 30 }, (_, i) => panel.addProject(account.id, `P${i}`, 12)));
        expect(made.filter(Boolean)).toHaveLength(12);
        expect(await panel.projectsOf(account.id)).toHaveLength(12);
        expect(await panel.addProject(account.id, 'Otro', 13)).toMatchObject({ name: 'Otro', account: account.id });
      }
    });

    it('refuses the attempt past a key’s limit in its window, atomically across workers, before recording it', async () => {
      for (const [, panel] of stores()) {
        const account = { key: `cuenta:${randomUUID()}`, limit: 10, windowMs: 60_000 };
        const address = { key: `ip:${randomUUID()}`, limit: 30, windowMs: 60_000 };
        const now = Date.now();
        const ids: number[] = [];
        for (let i = 0; i < 10; i++) ids.push(...(await panel.attempt([account, address], now + i))!);
        expect(ids).toHaveLength(20);
        expect(await panel.attempt([account, address], now + 10)).toBeUndefined();
        // The other key alone is not at its limit; the refused attempt was not recorded on it.
        expect(await panel.attempt([address], now + 10)).toHaveLength(1);
        // A minute after the first, that one no longer counts.
        expect(await panel.attempt([account], now + 60_000)).toHaveLength(1);
        expect(await panel.attempt([account], now + 60_000)).toBeUndefined();
        // Forgotten attempts (a right password) do not count.
        await panel.forgetAttempts(ids.slice(0, 4));
        expect(await panel.attempt([account], now + 60_001)).toHaveLength(1);
      }
      // 40 at once from two workers, limit 10: exactly 10 recorded.
      const key = { key: `cuenta:${randomUUID()}`, limit: 10, windowMs: 60_000 };
      const now = Date.now();
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => served[i % 2]!.panel.attempt([key], now)));
      expect(results.filter((r) => r !== undefined)).toHaveLength(10);
    });

    it('keeps one secret for the panel’s forms, the first one given', async () => {
      const first = await served[0]!.panel.panelSecret(`a-${randomUUID()}`);
      expect(await served[1]!.panel.panelSecret(`b-${randomUUID()}`)).toBe(first);
      expect(await admin.panelSecret('c')).toBe(first);
    });
  });

  it('migrates a registry of schema version 1 (before the panel), keeping its projects', async () => {
    const old = await store.versionOne();
    const migrated = await openAdmin(old);
    expect(await migrated.list()).toMatchObject([{ token: '33333333-3333-4333-8333-333333333333', name: 'Antes', credits: 9 }]);
    const account = (await migrated.createAccount({ email: 'nueva@ejemplo.mx', name: 'Nueva', passwordHash: 'x', credits: 50 }))!;
    await migrated.createSession('s', account.id, 0, 1);
    expect(await migrated.session('s', 0)).toMatchObject({ id: account.id });
    await migrated.close();
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
    const serve = await import('../support/serve.js');
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
    const serve = await import('../support/serve.js');
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
    const serve = await import('../support/serve.js');
    const refused = serve.startServe(['--registry', url]);
    await expect(refused).rejects.toThrow(/exited 2 before listening: .*cannot reach PostgreSQL/s);
    await expect(refused).rejects.not.toThrow(/s3cret/);
  });
});
