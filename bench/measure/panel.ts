/**
 * What the control panel costs and how fast it answers: the API's paying requests from a
 * `cpmx serve` without the panel and from one with it (same registry, alternating, so the
 * ratio shows what the panel's hook costs the API), a logged-in person's pages (the list of
 * projects; a project with its usage chart and errors) on SQLite and on PostgreSQL, and one
 * log-in after another (a scrypt hash and the session's writes).
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { startPostgres } from '../../test/support/postgres.js';
import type { PanelResults } from '../results.js';
import { median, spread } from '../stats.js';
import { load, start, stat } from './http.js';

const PASSWORD = 'contraseña del banco de pruebas';

/** A minimal browser: keeps cookies, reads the form's CSRF token, follows nothing. */
class Visitor {
  private readonly jar = new Map<string, string>();
  constructor(private readonly base: string) {}

  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private async request(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(this.base + path, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: this.cookie } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      if (/max-age=0/i.test(line)) this.jar.delete(pair!.slice(0, at));
      else this.jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  }

  /** Posts a form from the page at `from`, with that page's CSRF token; the Location it answers with. */
  async post(from: string, path: string, fields: Record<string, string>): Promise<string> {
    const page = await (await this.request(from)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
    if (!csrf) throw new Error(`no form at ${from}`);
    const response = await this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.base },
      body: new URLSearchParams({ csrf, ...fields }).toString(),
    });
    await response.arrayBuffer();
    const location = response.headers.get('location');
    if (response.status !== 303 || !location) throw new Error(`${path} answered ${response.status}`);
    return location;
  }
}

export async function panelLoad(options: { cli: string; artifact: string; work: string; codes: string[]; seconds: number; rounds?: number; log?: (line: string) => void }): Promise<PanelResults> {
  const connections = 10;
  const apiConnections = 50;
  const workers = 2;
  const rounds = options.rounds ?? 3;
  const { cli, seconds } = options;
  const postgres = await startPostgres();
  const sqlitePath = join(options.work, 'bench-panel.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(sqlitePath + suffix, { force: true });
  const registries = { sqlite: sqlitePath, postgres: await postgres.createDatabase('panel') };
  execFileSync(process.execPath, [cli, 'tokens', 'create', '--registry', sqlitePath, '--name', 'bench'], { encoding: 'utf8' });
  const serve = (registry: string, panel: boolean) =>
    start([cli, 'serve', '--host', '127.0.0.1', '--port', '0', '--data', options.artifact, '--workers', String(workers), '--registry', registry, ...(panel ? ['--panel'] : [])], 'cpmx serve');
  const servers = {
    sqlite: await serve(registries.sqlite, true),
    postgres: await serve(registries.postgres, true),
    without: await serve(registries.sqlite, false),
  };
  try {
    // A person on each store: an account, a project with a day of use and a few 107s.
    const people = {} as Record<'sqlite' | 'postgres', { visitor: Visitor; project: string; token: string }>;
    for (const store of ['sqlite', 'postgres'] as const) {
      const visitor = new Visitor(servers[store].url);
      await visitor.post('/panel/registro', '/panel/registro', { nombre: 'Banco de pruebas', correo: `banco-${store}@ejemplo.mx`, contrasena: PASSWORD });
      const project = (await visitor.post('/panel/', '/panel/proyectos', { nombre: 'Medido' })).replace(/\?.*$/, '');
      const page = await (await fetch(servers[store].url + project, { headers: { cookie: visitor.cookie } })).text();
      const old = /id="token" class="token" type="text" value="([^"]+)"/.exec(page)![1]!;
      for (const cp of options.codes.slice(0, 40)) await (await fetch(`${servers[store].url}/query/info_cp/${cp}?token=${old}`)).arrayBuffer();
      await visitor.post(project, `${project}/token`, {});
      for (let i = 0; i < 5; i++) await (await fetch(`${servers[store].url}/query/info_cp/09810?token=${old}`)).arrayBuffer();
      const fresh = /id="token" class="token" type="text" value="([^"]+)"/.exec(await (await fetch(servers[store].url + project, { headers: { cookie: visitor.cookie } })).text())![1]!;
      people[store] = { visitor, project, token: fresh };
    }
    // The API's paying requests need more credits than a new account has.
    execFileSync(process.execPath, [cli, 'tokens', 'credit', people.sqlite.token, '1000000000', '--registry', registries.sqlite], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const apiPaths = options.codes.slice(0, 200).map((cp) => `/query/info_cp/${cp}?token=${people.sqlite.token}&type=simplified`);

    const pages = ['projects', 'project'] as const;
    const pathOf = (store: 'sqlite' | 'postgres', page: (typeof pages)[number]) => (page === 'projects' ? '/panel/' : people[store].project);
    const runs = {
      without: [] as autocannon.Result[],
      with: [] as autocannon.Result[],
      sqlite: { projects: [] as autocannon.Result[], project: [] as autocannon.Result[] },
      postgres: { projects: [] as autocannon.Result[], project: [] as autocannon.Result[] },
    };
    await load(servers.without.url, apiPaths, apiConnections, 2);
    await load(servers.sqlite.url, apiPaths, apiConnections, 2);
    for (const store of ['sqlite', 'postgres'] as const) await load(servers[store].url, [pathOf(store, 'project')], connections, 2, { cookie: people[store].visitor.cookie });
    for (let round = 0; round < rounds; round++) {
      options.log?.(`panel: round ${round + 1} of ${rounds}, ${seconds} s each: the API without and with --panel, 2 pages on SQLite and PostgreSQL ...`);
      runs.without.push(await load(servers.without.url, apiPaths, apiConnections, seconds));
      runs.with.push(await load(servers.sqlite.url, apiPaths, apiConnections, seconds));
      for (const store of ['sqlite', 'postgres'] as const) {
        for (const page of pages) runs[store][page].push(await load(servers[store].url, [pathOf(store, page)], connections, seconds, { cookie: people[store].visitor.cookie }));
      }
    }
    // Log-ins one after another: each is a scrypt hash (the point of it) and a few writes.
    const logIns: number[] = [];
    for (let i = 0; i < 10; i++) {
      const visitor = new Visitor(servers.sqlite.url);
      const started = performance.now();
      await visitor.post('/panel/entrar', '/panel/entrar', { correo: 'banco-sqlite@ejemplo.mx', contrasena: PASSWORD });
      logIns.push(performance.now() - started);
    }
    const ratios = runs.with.map((run, i) => run.requests.average / runs.without[i]!.requests.average);
    const pagesOf = (store: 'sqlite' | 'postgres') => ({ projects: stat(runs[store].projects), project: stat(runs[store].project) });
    return {
      connections,
      apiConnections,
      seconds,
      rounds,
      workers,
      api: { without: stat(runs.without), with: stat(runs.with), ratios, ratio: median(ratios) },
      pages: { sqlite: pagesOf('sqlite'), postgres: pagesOf('postgres') },
      logInMs: spread(logIns),
    };
  } finally {
    for (const server of Object.values(servers)) server.child.kill('SIGTERM');
    await Promise.all(Object.values(servers).map((server) => new Promise((resolve) => (server.child.exitCode !== null ? resolve(null) : server.child.once('exit', resolve)))));
    await postgres.destroy();
  }
}
