/**
 * The control panel attacked over real HTTP: a `cpmx serve --panel` process with two workers
 * on a real SQLite registry (so sessions and throttling must hold across processes), and
 * clients that try what an attacker would: another account's project by its id in every
 * route, forms without a valid CSRF token or from another site, a session cookie planted
 * before log-in, a disabled account's tokens, and password guessing.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, FIXTURE, tempDir } from '../helpers.js';
import { createAdmin, csrfOf, PanelClient, send, type Answer } from '../support/panel.js';
import { startServe, tokensOk, type Served, waitFor } from '../support/serve.js';

const dir = tempDir();
const registry = join(dir, 'panel.db');
let served: Served;
let base: string;
const ADMIN = { email: 'admin@ejemplo.mx', password: 'contraseña-del-admin' };
const PASSWORD = 'una contraseña larga';

/** A person with an account and a project, logged in, each from an address of their own. */
interface Person {
  client: PanelClient;
  email: string;
  project: number;
  token: string;
}

async function person(name: string): Promise<Person> {
  const client = new PanelClient(base, { 'x-forwarded-for': `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
  const email = `${randomUUID()}@ejemplo.mx`;
  const signedUp = await client.signUp(name, email, PASSWORD);
  expect(signedUp.location).toBe('/panel/?aviso=bienvenida');
  const project = await client.createProject(`Proyecto de ${name}`);
  return { client, email, project, token: await client.tokenOf(project) };
}

/** The API's answer to a paying request with `token`: its HTTP status and code_error (0 for data). */
async function api(token: string): Promise<[number, number]> {
  const answer = await send(base, 'GET', `/query/info_cp/09810?token=${token}&type=simplified`);
  const body = JSON.parse(answer.body) as { code_error?: number } | unknown[];
  return [answer.status, Array.isArray(body) ? 0 : (body.code_error ?? -1)];
}

async function admin(): Promise<PanelClient> {
  const client = new PanelClient(base, { 'x-forwarded-for': '10.255.0.1' });
  expect((await client.logIn(ADMIN.email, ADMIN.password)).location).toBe('/panel/');
  return client;
}

beforeAll(async () => {
  const data = await buildInto(FIXTURE, dir);
  await tokensOk(['create', '--registry', registry, '--name', 'Del operador']);
  expect(await createAdmin(registry, ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
  served = await startServe(['--registry', registry, '--data', data, '--workers', '2', '--panel', '--panel-behind-proxy']);
  base = served.url;
});

afterAll(async () => {
  await served?.stop();
});

describe('the panel across two workers', () => {
  it('keeps a session in the registry: every request on a new connection, whichever worker takes it, knows who is logged in', async () => {
    const ana = await person('Ana');
    const pids = new Set<number>();
    // Connections alternate between asking /health which worker took them and asking for a page.
    // Workers accept their own connections (the kernel, not the primary, picks one), so it goes on
    // until both workers have been seen, with pages asked between, bounded.
    for (let i = 0; i < 200 && (pids.size < 2 || i < 9); i++) {
      if (i % 3 === 0) {
        pids.add((JSON.parse((await send(base, 'GET', '/health')).body) as { pid: number }).pid);
        continue;
      }
      const page = await ana.client.get('/panel/');
      expect(page.status).toBe(200);
      expect(page.body).toContain('Sesión de <strong>Ana</strong>');
    }
    expect(pids.size).toBe(2);
  });
});

describe('another account’s project, by its id', () => {
  it('cannot be read, renamed, regenerated or deleted through any route, and looks like no project at all', async () => {
    const [ana, beto] = await Promise.all([person('Ana'), person('Beto')]);
    const id = beto.project;
    const answers: [string, Answer][] = [
      ['GET page', await ana.client.get(`/panel/proyectos/${id}`)],
      ['GET delete confirmation', await ana.client.get(`/panel/proyectos/${id}/borrar`)],
      ['POST rename', await ana.client.post(`/panel/proyectos/${id}/nombre`, { nombre: 'Robado' }, { from: '/panel/' })],
      ['POST regenerate', await ana.client.post(`/panel/proyectos/${id}/token`, {}, { from: '/panel/' })],
      ['POST delete', await ana.client.post(`/panel/proyectos/${id}/borrar`, {}, { from: '/panel/' })],
    ];
    const nonexistent = await ana.client.get('/panel/proyectos/999999999');
    for (const [route, answer] of answers) {
      expect([route, answer.status]).toEqual([route, 404]);
      expect(answer.body).not.toContain(beto.token);
      expect(answer.body).not.toContain('Proyecto de Beto');
      // Word for word the page of a project that does not exist.
      expect(answer.body).toBe(nonexistent.body);
    }
    // Ids in the form's fields are not read: Ana renames her own project, not Beto's.
    const own = await ana.client.post(`/panel/proyectos/${ana.project}/nombre`, { nombre: 'Mío', proyecto: String(id), cuenta: '1', project: String(id) }, { from: '/panel/' });
    expect(own.location).toBe(`/panel/proyectos/${ana.project}?aviso=renombrado`);
    // Beto's project is as it was, and its token still answers.
    const page = await beto.client.get(`/panel/proyectos/${id}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Proyecto de Beto</h1>');
    expect(await beto.client.tokenOf(id)).toBe(beto.token);
    expect(await api(beto.token)).toEqual([200, 0]);
    expect((await ana.client.get(`/panel/proyectos/${ana.project}`)).body).toContain('<h1>Mío</h1>');
  });

  it('ids that are not plain numbers find nothing', async () => {
    const ana = await person('Ana');
    for (const id of [`${ana.project}.0`, `0x${ana.project.toString(16)}`, `%3${String(ana.project).slice(0, 1)}`, `-${ana.project}`, `${ana.project}/`, '1'.repeat(16)]) {
      expect([id, (await ana.client.get(`/panel/proyectos/${id}`)).status]).toEqual([id, 404]);
    }
  });

  it('the administrator’s pages are not there for a user: they look like no page at all, and change nothing', async () => {
    const [ana, beto] = await Promise.all([person('Ana'), person('Beto')]);
    const anaAccount = Number((await (await admin()).get('/panel/admin')).body.match(new RegExp(`id="cuenta-(\\d+)">\\s*<th scope="row">Ana<br><small>${ana.email}`))?.[1]);
    const betoAccount = Number((await (await admin()).get('/panel/admin')).body.match(new RegExp(`id="cuenta-(\\d+)">\\s*<th scope="row">Beto<br><small>${beto.email}`))?.[1]);
    expect(anaAccount).toBeGreaterThan(0);
    expect(betoAccount).toBeGreaterThan(0);
    expect((await ana.client.get('/panel/admin')).status).toBe(404);
    expect((await ana.client.post(`/panel/admin/cuentas/${anaAccount}/creditos`, { creditos: '1000' }, { from: '/panel/' })).status).toBe(404);
    expect((await ana.client.post(`/panel/admin/cuentas/${betoAccount}/estado`, { desactivar: 'si' }, { from: '/panel/' })).status).toBe(404);
    expect((await ana.client.get('/panel/')).body).toContain('<strong>50</strong> créditos disponibles');
    expect(await api(beto.token)).toEqual([200, 0]);
  });

  it('without a session, every route asks to log in and changes nothing', async () => {
    const ana = await person('Ana');
    const stranger = new PanelClient(base);
    const csrf = csrfOf((await stranger.get('/panel/entrar')).body);
    for (const path of ['/panel/', `/panel/proyectos/${ana.project}`, `/panel/proyectos/${ana.project}/borrar`, '/panel/admin']) {
      const answer = await stranger.get(path);
      // The page asked for is where the log-in goes next (round 3: a deep link kept across log-in).
      expect([path, answer.status, answer.location]).toEqual([path, 303, path === '/panel/' ? '/panel/entrar' : `/panel/entrar?volver=${encodeURIComponent(path)}`]);
      expect(answer.body).not.toContain(ana.token);
    }
    for (const path of [`/panel/proyectos/${ana.project}/nombre`, `/panel/proyectos/${ana.project}/token`, `/panel/proyectos/${ana.project}/borrar`, '/panel/proyectos', '/panel/salir']) {
      const answer = await stranger.post(path, { nombre: 'x' }, { csrf });
      expect([path, answer.status, answer.location]).toEqual([path, 303, '/panel/entrar']);
    }
    expect(await ana.client.tokenOf(ana.project)).toBe(ana.token);
  });
});

describe('forms', () => {
  it('are refused without their CSRF token, with a wrong one, with another session’s, or posted from another site; changing nothing', async () => {
    const [ana, beto] = await Promise.all([person('Ana'), person('Beto')]);
    const betoCsrf = csrfOf((await beto.client.get('/panel/')).body);
    const anaCsrf = csrfOf((await ana.client.get('/panel/')).body);
    const posts: [string, Record<string, string>][] = [
      [`/panel/proyectos/${ana.project}/nombre`, { nombre: 'Cambiado' }],
      [`/panel/proyectos/${ana.project}/token`, {}],
      [`/panel/proyectos/${ana.project}/borrar`, {}],
      ['/panel/proyectos', { nombre: 'Nuevo' }],
      ['/panel/salir', {}],
    ];
    const attacks: [string, { csrf: string | false; headers?: Record<string, string> }][] = [
      ['no token', { csrf: false }],
      ['a wrong token', { csrf: anaCsrf.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }],
      ['an empty token', { csrf: '' }],
      ['another session’s token', { csrf: betoCsrf }],
      ['another origin', { csrf: anaCsrf, headers: { origin: 'http://atacante.example' } }],
      ['a cross-site fetch', { csrf: anaCsrf, headers: { 'sec-fetch-site': 'cross-site' } }],
      ['an opaque origin', { csrf: anaCsrf, headers: { origin: 'null' } }],
    ];
    for (const [path, fields] of posts) {
      for (const [attack, options] of attacks) {
        const answer = await ana.client.post(path, fields, options);
        expect([path, attack, answer.status]).toEqual([path, attack, 403]);
        expect(answer.body).toContain('Este formulario caducó o no se envió desde el panel.');
      }
    }
    const dashboard = await ana.client.get('/panel/');
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.match(/href="\/panel\/proyectos\/\d+"/g)).toHaveLength(1);
    expect(await ana.client.tokenOf(ana.project)).toBe(ana.token);
    expect((await ana.client.get(`/panel/proyectos/${ana.project}`)).body).toContain('<h1>Proyecto de Ana</h1>');
    // The same form with its token is accepted: the refusals were for the token.
    expect((await ana.client.post(`/panel/proyectos/${ana.project}/nombre`, { nombre: 'Cambiado' }, { csrf: anaCsrf })).location).toBe(`/panel/proyectos/${ana.project}?aviso=renombrado`);
  });

  it('log-in and sign-up are refused without the token bound to the browser’s cookie', async () => {
    const beto = await person('Beto');
    const attacker = new PanelClient(base);
    const attackerCsrf = csrfOf((await attacker.get('/panel/entrar')).body);
    const victim = new PanelClient(base);
    await victim.get('/panel/entrar');
    // A page of another site that posts the attacker's log-in from the victim's browser (login CSRF).
    for (const path of ['/panel/entrar', '/panel/registro']) {
      const fields = { correo: beto.email, contrasena: PASSWORD, nombre: 'x' };
      expect((await victim.post(path, fields, { csrf: attackerCsrf })).status).toBe(403);
      expect((await victim.post(path, fields, { csrf: false })).status).toBe(403);
      expect((await new PanelClient(base).post(path, fields, { csrf: attackerCsrf })).status).toBe(403);
    }
    expect(victim.cookies.has('cpmx_sesion')).toBe(false);
  });

  it('refuses other content types, bodies over 16 KB and other methods', async () => {
    const ana = await person('Ana');
    const cookie = { cookie: [...ana.client.cookies].map(([n, v]) => `${n}=${v}`).join('; '), origin: base };
    const csrf = csrfOf((await ana.client.get('/panel/')).body);
    const json = await send(base, 'POST', '/panel/proyectos', { ...cookie, 'content-type': 'application/json' }, JSON.stringify({ csrf, nombre: 'x' }));
    expect(json.status).toBe(415);
    const big = await send(base, 'POST', '/panel/proyectos', { ...cookie, 'content-type': 'application/x-www-form-urlencoded' }, `csrf=${csrf}&nombre=${'x'.repeat(17_000)}`);
    expect(big.status).toBe(413);
    expect((await send(base, 'PUT', '/panel/', cookie)).status).toBe(405);
    expect((await send(base, 'DELETE', `/panel/proyectos/${ana.project}`, cookie)).headers.allow).toBe('GET, HEAD');
    expect(await ana.client.tokenOf(ana.project)).toBe(ana.token);
  });
});

describe('sessions', () => {
  it('a cookie from before log-in does not survive it: the log-in makes a new session, and the old values log no one in', async () => {
    const beto = await person('Beto');
    const browser = new PanelClient(base);
    await browser.get('/panel/entrar');
    const before = browser.cookies.get('cpmx_previa')!;
    // An attacker planted a session cookie of their choosing in the browser (session fixation).
    const planted = 'A'.repeat(43);
    browser.cookies.set('cpmx_sesion', planted);
    const loggedIn = await browser.logIn(beto.email, PASSWORD);
    expect(loggedIn.location).toBe('/panel/');
    const session = browser.cookies.get('cpmx_sesion')!;
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([before, planted]).not.toContain(session);
    expect(browser.cookies.has('cpmx_previa')).toBe(false);
    const cookie = loggedIn.setCookies.find((c) => c.startsWith('cpmx_sesion='))!;
    expect(cookie).toMatch(/; Path=\/panel; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    for (const old of [before, planted]) {
      const answer = await send(base, 'GET', '/panel/', { cookie: `cpmx_sesion=${old}` });
      expect([old, answer.status, answer.location]).toEqual([old, 303, '/panel/entrar?aviso=sesion']);
    }
    expect((await browser.get('/panel/')).status).toBe(200);

    // Logging in again (another tab) ends the first session; logging out ends the second.
    const pre = new PanelClient(base);
    await pre.get('/panel/entrar');
    browser.cookies.set('cpmx_previa', pre.cookies.get('cpmx_previa')!);
    expect((await browser.post('/panel/entrar', { correo: beto.email, contrasena: PASSWORD }, { csrf: csrfOf((await pre.get('/panel/entrar')).body) })).location).toBe('/panel/');
    const second = browser.cookies.get('cpmx_sesion')!;
    expect(second).not.toBe(session);
    expect((await send(base, 'GET', '/panel/', { cookie: `cpmx_sesion=${session}` })).status).toBe(303);
    expect((await browser.post('/panel/salir', {}, { from: '/panel/' })).location).toBe('/panel/entrar?aviso=salio');
    expect(browser.cookies.has('cpmx_sesion')).toBe(false);
    expect((await send(base, 'GET', '/panel/', { cookie: `cpmx_sesion=${second}` })).location).toBe('/panel/entrar?aviso=sesion');
  });

  it('cookies are Secure when the panel is reached over HTTPS (through a proxy that says so)', async () => {
    const browser = new PanelClient(base, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'panel.ejemplo.mx' });
    const page = await browser.get('/panel/entrar');
    expect(page.setCookies[0]).toMatch(/^__Host-cpmx_previa=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
    // The proxy's host is the panel's origin: a form posted from it is accepted.
    const beto = await person('Beto');
    const answer = await browser.post('/panel/entrar', { correo: beto.email, contrasena: PASSWORD }, { headers: { origin: 'https://panel.ejemplo.mx' } });
    expect(answer.location).toBe('/panel/');
    expect(answer.setCookies.find((c) => c.startsWith('__Host-cpmx_sesion='))).toMatch(/; Secure$/);
  });
});

describe('an account disabled by the administrator', () => {
  it('loses its tokens at once, its sessions, and its log-in; enabled again, its tokens answer again', async () => {
    const carla = await person('Carla');
    expect(await api(carla.token)).toEqual([200, 0]);
    const boss = await admin();
    const list = (await boss.get('/panel/admin')).body;
    const account = Number(list.match(new RegExp(`id="cuenta-(\\d+)">\\s*<th scope="row">Carla<br><small>${carla.email}`))![1]);
    expect((await boss.post(`/panel/admin/cuentas/${account}/estado`, { desactivar: 'si' }, { from: '/panel/admin' })).location).toBe(`/panel/admin?aviso=desactivada#cuenta-${account}`);
    // The very next request with its token, on any worker.
    expect(await api(carla.token)).toEqual([401, 107]);
    expect(await api(carla.token)).toEqual([401, 107]);
    expect((await carla.client.get('/panel/')).location).toBe('/panel/entrar?aviso=sesion');
    const again = await new PanelClient(base, { 'x-forwarded-for': '10.0.0.99' }).logIn(carla.email, PASSWORD);
    expect(again.status).toBe(403);
    expect(again.body).toContain('Esta cuenta está desactivada.');
    expect((await boss.get('/panel/admin')).body).toMatch(new RegExp(`id="cuenta-${account}">[\\s\\S]*?Desactivada`));

    expect((await boss.post(`/panel/admin/cuentas/${account}/estado`, { desactivar: 'no' }, { from: '/panel/admin' })).status).toBe(303);
    expect((await boss.post(`/panel/admin/cuentas/${account}/creditos`, { creditos: '25' }, { from: '/panel/admin' })).status).toBe(303);
    expect(await api(carla.token)).toEqual([200, 0]);
    const back = new PanelClient(base, { 'x-forwarded-for': '10.0.0.98' });
    expect((await back.logIn(carla.email, PASSWORD)).location).toBe('/panel/');
    expect((await back.get('/panel/')).body).toContain('<strong>73</strong> créditos disponibles');
  });

  it('the administrator cannot disable their own account, nor grant what is not a whole number of credits', async () => {
    const boss = await admin();
    const list = (await boss.get('/panel/admin')).body;
    const own = Number(list.match(new RegExp(`id="cuenta-(\\d+)">\\s*<th scope="row">Administración<br><small>${ADMIN.email}`))![1]);
    const refused = await boss.post(`/panel/admin/cuentas/${own}/estado`, { desactivar: 'si' }, { from: '/panel/admin' });
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('No puede desactivar su propia cuenta.');
    for (const credits of ['0', '-5', '1.5', 'diez', '99999999']) {
      expect((await boss.post(`/panel/admin/cuentas/${own}/creditos`, { creditos: credits }, { from: '/panel/admin' })).status).toBe(422);
    }
    expect((await boss.get('/panel/')).status).toBe(200);
  });
});

/** Log-in attempts the registry counts under `key` (`cuenta:EMAIL`, `ip:ADDRESS`), as the limits do. */
function attempts(key: string): number {
  const db = new Database(registry, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM attempts WHERE key = ?').get(key) as { n: number }).n;
  } finally {
    db.close();
  }
}

/**
 * For a test that makes 10 to 30 scrypt hashes (128 MiB and about 0.4 s of a core each): a
 * minute was not always enough on a loaded 2-core machine.
 */
const HASHES_TIMEOUT = 180_000;

describe('password guessing', () => {
  it(
    'the 11th wrong password in a minute for one account is refused before checking: even the right one, from any address',
    async () => {
      const dora = await person('Dora');
      // As above: the 11th goes once the 10 are counted, not after their hashes.
      const guesses = Promise.all(Array.from({ length: 10 }, (_, i) => new PanelClient(base, { 'x-forwarded-for': `172.16.0.${i + 1}` }).logIn(dora.email, `incorrecta-${i}-larga`)));
      await waitFor(() => attempts(`cuenta:${dora.email}`) === 10, 'the 10 guesses to be counted');
      for (const address of ['172.16.0.50', '172.16.0.51']) {
        const refused = await new PanelClient(base, { 'x-forwarded-for': address }).logIn(dora.email.toUpperCase(), PASSWORD);
        expect(refused.status).toBe(429);
        expect(refused.headers['retry-after']).toBe('60');
        expect(refused.body).toContain('Demasiados intentos fallidos.');
        expect(refused.setCookies.some((c) => c.startsWith('cpmx_sesion='))).toBe(false);
      }
      for (const [i, guess] of (await guesses).entries()) {
        expect([i, guess.status]).toEqual([i, 401]);
        expect(guess.body).toContain('El correo o la contraseña no son correctos.');
      }
      // Other accounts log in as usual.
      const eva = await person('Eva');
      expect((await new PanelClient(base, { 'x-forwarded-for': '172.16.0.52' }).logIn(eva.email, PASSWORD)).location).toBe('/panel/');
    },
    HASHES_TIMEOUT,
  );

  it(
    'the 31st wrong password in a minute from one address is refused, whatever the account',
    async () => {
      const fede = await person('Fede');
      const from = { 'x-forwarded-for': '192.0.2.77' };
      // At once: the limit holds for attempts under way together too. Each is counted as it
      // arrives, then checked against a hash; the 31st goes once all 30 are counted, while they
      // are being checked: waiting for their 30 scrypt hashes first took most of the limit's
      // minute on a loaded 2-core machine (and past it, the first ones leave the count).
      const guesses = Promise.all(Array.from({ length: 30 }, () => new PanelClient(base, from).logIn(`${randomUUID()}@ejemplo.mx`, 'no es la buena')));
      await waitFor(() => attempts('ip:192.0.2.77') === 30, 'the 30 guesses to be counted');
      expect((await new PanelClient(base, from).logIn(fede.email, PASSWORD)).status).toBe(429);
      expect((await guesses).map((g) => g.status)).toEqual(Array(30).fill(401));
      expect((await new PanelClient(base, { 'x-forwarded-for': '192.0.2.78' }).logIn(fede.email, PASSWORD)).location).toBe('/panel/');
    },
    HASHES_TIMEOUT,
  );

  it('sign-ups are limited to 10 an hour from one address', async () => {
    const from = { 'x-forwarded-for': '198.51.100.9' };
    for (let i = 0; i < 10; i++) expect((await new PanelClient(base, from).signUp(`Alta ${i}`, `${randomUUID()}@ejemplo.mx`, PASSWORD)).status).toBe(303);
    const refused = await new PanelClient(base, from).signUp('Una más', `${randomUUID()}@ejemplo.mx`, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body).toContain('Se crearon demasiadas cuentas desde su dirección.');
  });

  it('an X-Forwarded-For that is not an address is not taken as one: the connection’s address counts instead', async () => {
    const hana = await person('Hana');
    const junk = `no-es-una-dirección-${randomUUID()}`;
    expect((await new PanelClient(base, { 'x-forwarded-for': junk }).logIn(hana.email, 'no es la buena')).status).toBe(401);
    const db = new Database(registry, { readonly: true });
    const keys = (db.prepare('SELECT key FROM attempts').all() as { key: string }[]).map((row) => row.key);
    db.close();
    expect(keys).toContain(`cuenta:${hana.email}`);
    expect(keys.filter((key) => key.includes(junk))).toEqual([]);
    expect(keys.filter((key) => /^ip:(::ffff:)?127\.0\.0\.1$/.test(key)).length).toBeGreaterThan(0);
  });

  it('a second account with the same email, in any case, is refused', async () => {
    const gil = await person('Gil');
    const again = await new PanelClient(base).signUp('Otro Gil', gil.email.toUpperCase(), PASSWORD);
    expect(again.status).toBe(422);
    expect(again.body).toContain('Ya hay una cuenta con este correo');
  });
});

describe('projects', () => {
  it('are at most 100 per account', async () => {
    const iris = await person('Iris');
    const csrf = csrfOf((await iris.client.get('/panel/')).body);
    for (let i = 2; i <= 100; i++) expect((await iris.client.post('/panel/proyectos', { nombre: `Proyecto ${i}` }, { csrf })).status).toBe(303);
    const refused = await iris.client.post('/panel/proyectos', { nombre: 'El 101' }, { csrf });
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('Ya tiene 100 proyectos, el máximo por cuenta');
    const page = await iris.client.get('/panel/');
    expect(page.body.match(/href="\/panel\/proyectos\/\d+"/g)).toHaveLength(100);
    expect(page.body).toContain('Tiene 100 proyectos, el máximo por cuenta: borre uno para crear otro.');
  });
});

describe('every answer of the panel', () => {
  it('carries the security headers and no cache; the API’s answers carry no panel cookie', async () => {
    const pages = [await send(base, 'GET', '/panel/entrar'), await send(base, 'GET', '/panel/registro'), await send(base, 'GET', '/panel/'), await send(base, 'GET', '/panel/nada')];
    for (const page of pages) {
      expect(page.headers['content-security-policy']).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['referrer-policy']).toBe('same-origin');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(pages.map((p) => p.status)).toEqual([200, 200, 303, 404]);
    expect(pages[0]!.body).not.toMatch(/<script(?![^>]*\bsrc="\/panel\/static\/panel\.js\?v=[\w-]+")/);
    expect(pages[0]!.body).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    const script = await send(base, 'GET', pages[0]!.body.match(/src="(\/panel\/static\/panel\.js\?v=[\w-]+)"/)![1]!);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const answer = await send(base, 'GET', '/query/info_cp/09810?token=pruebas');
    expect(answer.status).toBe(200);
    expect(answer.setCookies).toEqual([]);
  });
});
