/**
 * Two `cpmx serve --panel` servers on one real PostgreSQL, as behind a load balancer: a
 * session, a form's CSRF token, the count of wrong passwords, a new token and a disabled
 * account are the same on both, because they live in the database.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, FIXTURE, tempDir } from '../helpers.js';
import { createAdmin, csrfOf, PanelClient, send } from '../support/panel.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startServe, waitFor, type Served } from '../support/serve.js';

const dir = tempDir();
const PASSWORD = 'contraseña compartida';
const ADMIN = { email: 'admin@ejemplo.mx', password: 'la del administrador' };
let postgres: TestPostgres;
let servers: Served[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase('panel');
  const data = await buildInto(FIXTURE, dir);
  expect(await createAdmin(url, ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
  // 140 project creations at once queue for one account's row, four connections a server: on
  // a loaded 2-core machine the last ones waited past the default --registry-timeout (2 s) and
  // were answered 503, as they should be. What is tested here is what the two servers agree
  // on, not how long one waits; the database down is refused at once, whatever the timeout.
  servers = await Promise.all([0, 1].map(() => startServe(['--registry', url, '--data', data, '--panel', '--panel-behind-proxy', '--registry-timeout', '30000'])));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await postgres?.destroy();
});

/** The same person's browser, sent to one server or the other (a proxy would keep the Host). */
function on(client: PanelClient, server: number): PanelClient {
  const moved = new PanelClient(servers[server]!.url, client.headers);
  for (const [name, value] of client.cookies) moved.cookies.set(name, value);
  return moved;
}

const api = async (server: number, token: string) => (await send(servers[server]!.url, 'GET', `/query/info_cp/09810?token=${token}`)).status;

describe('two servers, one PostgreSQL', () => {
  it('share sessions, CSRF tokens, new tokens and disabled accounts', async () => {
    const email = `${randomUUID()}@ejemplo.mx`;
    const first = new PanelClient(servers[0]!.url, { 'x-forwarded-for': '10.1.1.1' });
    expect((await first.signUp('Compartida', email, PASSWORD)).location).toBe('/panel/?aviso=bienvenida');
    const project = await first.createProject('En dos servidores');
    const token = await first.tokenOf(project);
    // Logged in on the first, the second knows the session and accepts the first's form token.
    const second = on(first, 1);
    expect((await second.get(`/panel/proyectos/${project}`)).body).toContain(token);
    const csrf = csrfOf((await first.get(`/panel/proyectos/${project}`)).body);
    expect((await second.post(`/panel/proyectos/${project}/token`, {}, { csrf })).location).toBe(`/panel/proyectos/${project}?aviso=regenerado`);
    // The new token from the second server: the first refuses the old one at once.
    expect(await api(0, token)).toBe(401);
    const fresh = await first.tokenOf(project);
    expect(await api(0, fresh)).toBe(200);
    expect(await api(1, fresh)).toBe(200);

    // Disabled from the second server: its tokens and its session end on the first.
    const admin = new PanelClient(servers[1]!.url, { 'x-forwarded-for': '10.1.1.2' });
    expect((await admin.logIn(ADMIN.email, ADMIN.password)).location).toBe('/panel/');
    const account = Number(/id="cuenta-(\d+)">\s*<th scope="row">Compartida/.exec((await admin.get('/panel/admin')).body)![1]);
    expect((await admin.post(`/panel/admin/cuentas/${account}/estado`, { desactivar: 'si' }, { from: '/panel/admin' })).status).toBe(303);
    expect(await api(0, fresh)).toBe(401);
    expect((await first.get('/panel/')).location).toBe('/panel/entrar?aviso=sesion');
  });

  it('answer 503 while the database is down, never a page as someone else, and serve again once it is back', async () => {
    const email = `${randomUUID()}@ejemplo.mx`;
    const person = new PanelClient(servers[0]!.url, { 'x-forwarded-for': '10.3.0.1' });
    expect((await person.signUp('Paciente', email, PASSWORD)).status).toBe(303);
    await postgres.stop();
    try {
      for (const path of ['/panel/', '/panel/entrar']) {
        const answer = await person.get(path);
        expect([path, answer.status]).toEqual([path, 503]);
        expect(answer.headers['retry-after']).toBe('5');
        expect(answer.body).toContain('El panel no puede consultar el registro en este momento.');
        expect(answer.setCookies).toEqual([]);
      }
    } finally {
      await postgres.start();
    }
    await waitFor(async () => (await person.get('/panel/')).status === 200, 'the panel answering again');
    expect((await person.get('/panel/')).body).toContain('Sesión de <strong>Paciente</strong>');
  });

  it('hold the 100-project limit for creations at once on both servers', async () => {
    const client = new PanelClient(servers[0]!.url, { 'x-forwarded-for': '10.4.0.1' });
    expect((await client.signUp('Concurrente', `${randomUUID()}@ejemplo.mx`, PASSWORD)).status).toBe(303);
    const csrf = csrfOf((await client.get('/panel/')).body);
    const answers = await Promise.all(Array.from({ length: 140 }, (_, i) => on(client, i % 2).post('/panel/proyectos', { nombre: `P${i}` }, { csrf })));
    expect(answers.filter((a) => a.status === 303)).toHaveLength(100);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(40);
    expect((await client.get('/panel/')).body.match(/href="\/panel\/proyectos\/\d+"/g)).toHaveLength(100);
  });

  it('count wrong passwords together: the 11th in a minute is refused by either', async () => {
    const email = `${randomUUID()}@ejemplo.mx`;
    expect((await new PanelClient(servers[0]!.url).signUp('Adivinada', email, PASSWORD)).status).toBe(303);
    for (let i = 0; i < 10; i++) {
      const guess = await new PanelClient(servers[i % 2]!.url, { 'x-forwarded-for': `10.2.0.${i + 1}` }).logIn(email, `incorrecta ${i}`);
      expect([i, guess.status]).toEqual([i, 401]);
    }
    for (const server of [0, 1]) expect((await new PanelClient(servers[server]!.url, { 'x-forwarded-for': '10.2.1.1' }).logIn(email, PASSWORD)).status).toBe(429);
  });
});
