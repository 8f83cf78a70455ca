/**
 * The control panel's holes found in round 3 (issue 22, items 13 to 18 and 20), each tried
 * the way it was found, over real HTTP against `cpmx serve --panel` with two workers on a real
 * SQLite registry: sign-ups that probe registered emails without limit, a password reset that
 * keeps (and promotes) sessions, cookies planted by another port of the host, concurrent
 * project creations past the limit, emoji passwords that can sign up but never log in, any
 * Host name served (DNS rebinding), and `?aviso=__proto__`.
 */
import { randomUUID, scrypt } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, FIXTURE, tempDir } from '../helpers.js';
import { createAdmin, csrfOf, PanelClient, panelCli, send } from '../support/panel.js';
import { startServe, type Served } from '../support/serve.js';

const dir = tempDir();
const registry = join(dir, 'panel.db');
let served: Served;
let base: string;
const PASSWORD = 'una contraseña larga';
let nextAddress = 0;

/** A browser of its own, from an address of its own (the server takes X-Forwarded-For). */
const browser = (headers: Record<string, string> = {}) => new PanelClient(base, { 'x-forwarded-for': `10.22.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`, ...headers });

async function signedUp(name: string, password = PASSWORD): Promise<{ client: PanelClient; email: string }> {
  const client = browser();
  const email = `${randomUUID()}@ejemplo.mx`;
  const answer = await client.signUp(name, email, password);
  expect(answer.location).toBe('/panel/?aviso=bienvenida');
  return { client, email };
}

function stored(email: string): { id: number; admin: number; password_hash: string } {
  const db = new Database(registry, { readonly: true });
  try {
    return db.prepare('SELECT id, admin, password_hash FROM accounts WHERE email = ?').get(email) as { id: number; admin: number; password_hash: string };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  const data = await buildInto(FIXTURE, dir);
  expect(await createAdmin(registry, 'admin@ejemplo.mx', 'contraseña del admin')).toMatchObject({ code: 0 });
  // --registry-timeout: 140 project creations at once queue for one account (test 16); on a
  // loaded machine the default 2 s can answer the last ones 503 (as panel-postgres's did).
  served = await startServe(['--registry', registry, '--data', data, '--workers', '2', '--panel', '--panel-behind-proxy', '--panel-host', 'panel.ejemplo.mx', '--registry-timeout', '30000']);
  base = served.url;
});

afterAll(async () => {
  await served?.stop();
});

describe('13: sign-ups with an email that already has an account', () => {
  it('count toward the limit of 10 an hour per address, so registered emails cannot be probed (nor scrypt made to work) without bound', async () => {
    const { email } = await signedUp('Registrada');
    const from = { 'x-forwarded-for': '203.0.113.13' };
    for (let i = 0; i < 10; i++) {
      const probe = await new PanelClient(base, from).signUp(`Sondeo ${i}`, i % 2 ? email : email.toUpperCase(), PASSWORD);
      expect([i, probe.status]).toEqual([i, 422]);
      expect(probe.body).toContain('Ya hay una cuenta con este correo');
    }
    for (const address of [email, `${randomUUID()}@ejemplo.mx`]) {
      const refused = await new PanelClient(base, from).signUp('Una más', address, PASSWORD);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('3600');
      expect(refused.body).not.toContain('Ya hay una cuenta con este correo');
    }
  });
});

describe('14: a password set by the operator', () => {
  it('create-admin on an existing account ends its sessions: none of them becomes an administrator’s', async () => {
    const { client, email } = await signedUp('Ascendida');
    expect((await client.get('/panel/')).status).toBe(200);
    expect((await client.get('/panel/admin')).status).toBe(404);
    expect(await createAdmin(registry, email, 'la nueva del admin')).toMatchObject({ code: 0, stderr: expect.stringMatching(/its sessions were ended/) });
    const old = await client.get('/panel/admin');
    expect([old.status, old.location]).toEqual([303, '/panel/entrar?aviso=sesion&volver=%2Fpanel%2Fadmin']);
    expect((await client.get('/panel/')).location).toBe('/panel/entrar?aviso=sesion');
    const again = browser();
    expect((await again.logIn(email, 'la nueva del admin')).location).toBe('/panel/');
    expect((await again.get('/panel/admin')).status).toBe(200);
  });

  it('reset-password changes only the password, and ends every session of the account', async () => {
    const { client, email } = await signedUp('Olvidadiza');
    const other = browser();
    expect((await other.logIn(email, PASSWORD)).location).toBe('/panel/');
    const reset = await panelCli('reset-password', registry, email.toUpperCase(), 'otra contraseña nueva');
    expect(reset).toMatchObject({ code: 0, stderr: expect.stringMatching(/has the password just given; its sessions were ended/) });
    for (const session of [client, other]) expect((await session.get('/panel/')).location).toBe('/panel/entrar?aviso=sesion');
    expect((await browser().logIn(email, PASSWORD)).status).toBe(401);
    const back = browser();
    expect((await back.logIn(email, 'otra contraseña nueva')).location).toBe('/panel/');
    expect((await back.get('/panel/admin')).status).toBe(404);
    expect(stored(email).admin).toBe(0);
    // An administrator's reset keeps them one; an email without an account changes nothing.
    expect(await panelCli('reset-password', registry, 'admin@ejemplo.mx', 'contraseña del admin')).toMatchObject({ code: 0 });
    expect(stored('admin@ejemplo.mx').admin).toBe(1);
    expect(await panelCli('reset-password', registry, `${randomUUID()}@ejemplo.mx`, 'da igual cuál')).toMatchObject({ code: 1, stderr: expect.stringMatching(/has no account in .*nothing was changed/) });
  });
});

describe('15: a cookie planted by another port of the same host', () => {
  it('on plain HTTP, a second cpmx_sesion (the attacker’s, sent first) is not used: both are cleared and the person logs in again', async () => {
    const attacker = await signedUp('Atacante');
    const victim = await signedUp('Víctima');
    const planted = attacker.client.cookies.get('cpmx_sesion')!;
    const own = victim.client.cookies.get('cpmx_sesion')!;
    // A browser sends the cookie with the longer Path first: the one planted with Path=/panel/.
    for (const order of [`cpmx_sesion=${planted}; cpmx_sesion=${own}`, `cpmx_sesion=${own}; cpmx_sesion=${planted}`]) {
      const page = await send(base, 'GET', '/panel/proyectos/1', { cookie: order });
      expect(page.status).toBe(303);
      expect(page.location).toBe('/panel/entrar?aviso=cookies&volver=%2Fpanel%2Fproyectos%2F1');
      expect(page.body).not.toContain('Atacante');
      // Deleted wherever a copy sent for this path can be kept.
      for (const path of ['/', '/panel', '/panel/', '/panel/proyectos', '/panel/proyectos/', '/panel/proyectos/1']) {
        expect(page.setCookies).toContain(`cpmx_sesion=; Path=${path}; Max-Age=0`);
      }
    }
    const form = await send(base, 'POST', '/panel/proyectos', {
      cookie: `cpmx_sesion=${planted}; cpmx_sesion=${own}`,
      'content-type': 'application/x-www-form-urlencoded',
      origin: base,
    }, `csrf=${csrfOf((await victim.client.get('/panel/')).body)}&nombre=Secreto`);
    expect(form.location).toBe('/panel/entrar?aviso=cookies');
    expect((await attacker.client.get('/panel/')).body).not.toContain('Secreto');
    const login = await send(base, 'GET', '/panel/entrar?aviso=cookies');
    expect(login.body).toContain('Su navegador enviaba dos cookies de sesión');
  });

  it('over HTTPS the cookies are __Host- prefixed, and a cookie without the prefix (all a plain-HTTP port can set) is not read', async () => {
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'panel.ejemplo.mx' };
    const attacker = await signedUp('Atacante HTTPS');
    const victim = browser(https);
    const page = await victim.get('/panel/entrar');
    expect(page.setCookies[0]).toMatch(/^__Host-cpmx_previa=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
    const { email } = await signedUp('Víctima HTTPS');
    const loggedIn = await victim.post('/panel/entrar', { correo: email, contrasena: PASSWORD }, { headers: { origin: 'https://panel.ejemplo.mx' } });
    expect(loggedIn.location).toBe('/panel/');
    expect(loggedIn.setCookies.find((c) => c.startsWith('__Host-cpmx_sesion='))).toMatch(/^__Host-cpmx_sesion=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/);
    expect((await victim.get('/panel/')).body).toContain('Sesión de <strong>Víctima HTTPS</strong>');
    // The attacker's plain cookie beside it, or alone: never the attacker's account.
    const own = victim.cookies.get('__Host-cpmx_sesion')!;
    const planted = attacker.client.cookies.get('cpmx_sesion')!;
    const beside = await send(base, 'GET', '/panel/', { ...https, cookie: `cpmx_sesion=${planted}; __Host-cpmx_sesion=${own}` });
    expect(beside.body).toContain('Sesión de <strong>Víctima HTTPS</strong>');
    const alone = await send(base, 'GET', '/panel/', { ...https, cookie: `cpmx_sesion=${planted}` });
    expect([alone.status, alone.location]).toEqual([303, '/panel/entrar']);
  });
});

describe('16: the 100-project limit', () => {
  it('holds for 140 creations at once, on two workers', async () => {
    const { client } = await signedUp('Impaciente');
    const csrf = csrfOf((await client.get('/panel/')).body);
    const answers = await Promise.all(Array.from({ length: 140 }, (_, i) => client.post('/panel/proyectos', { nombre: `Proyecto ${i}` }, { csrf })));
    expect(answers.filter((a) => a.status === 303)).toHaveLength(100);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(40);
    expect((await client.get('/panel/')).body.match(/href="\/panel\/proyectos\/\d+"/g)).toHaveLength(100);
  });
});

describe('17: passwords', () => {
  it('are measured alike at sign-up and log-in: 200 emoji sign up and log in; 257 are refused at sign-up', async () => {
    const emoji = '🔐'.repeat(200);
    const { email } = await signedUp('Emoji', emoji);
    expect((await browser().logIn(email, emoji)).location).toBe('/panel/');
    // Composed and decomposed forms are one password (NFC), and count the same.
    const decomposed = `${'e\u0301'.repeat(256)}`;
    const { email: accented } = await signedUp('Acentos', decomposed);
    expect((await browser().logIn(accented, 'é'.repeat(256))).location).toBe('/panel/');
    const long = await browser().signUp('Demasiado', `${randomUUID()}@ejemplo.mx`, '🔐'.repeat(257));
    expect(long.status).toBe(422);
    expect(long.body).toContain('La contraseña debe tener como máximo 256 caracteres.');
    // The operator's command counts the same way.
    expect(await createAdmin(registry, `${randomUUID()}@ejemplo.mx`, '🔑'.repeat(256))).toMatchObject({ code: 0 });
    expect(await createAdmin(registry, `${randomUUID()}@ejemplo.mx`, '🔑'.repeat(257))).toMatchObject({ code: 2 });
  });

  it('are hashed with scrypt at N = 2^17, and a hash made at 2^15 is made again at the next log-in, keeping the session', async () => {
    const { client, email } = await signedUp('Antigua');
    expect(stored(email).password_hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    const salt = Buffer.from(randomUUID().replaceAll('-', ''), 'hex');
    const key = await new Promise<Buffer>((resolve, reject) => scrypt(PASSWORD, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (e, k) => (e ? reject(e) : resolve(k))));
    const old = `scrypt$32768$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    const db = new Database(registry);
    db.prepare('UPDATE accounts SET password_hash = ? WHERE email = ?').run(old, email);
    db.close();
    expect((await browser().logIn(email, PASSWORD)).location).toBe('/panel/');
    const now = stored(email).password_hash;
    expect(now).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect((await browser().logIn(email, PASSWORD)).location).toBe('/panel/');
    expect((await client.get('/panel/')).status).toBe(200);
  });
});

describe('18: Host names', () => {
  it('a name the operator did not allow (a DNS-rebinding page’s) gets 421 before anything is read or made', async () => {
    const { email } = await signedUp('Local');
    const before = new Database(registry, { readonly: true });
    const accounts = (before.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n;
    before.close();
    const port = new URL(base).port;
    for (const host of [`atacante.example:${port}`, 'atacante.example', `PANEL.ejemplo.mx.evil:${port}`]) {
      const page = await send(base, 'GET', '/panel/entrar', { host });
      expect([host, page.status]).toEqual([host, 421]);
      expect(page.body).toContain('Este servidor no sirve el panel con el nombre');
      expect(page.setCookies).toEqual([]);
      const post = await send(base, 'POST', '/panel/registro', { host, 'content-type': 'application/x-www-form-urlencoded' }, `nombre=x&correo=${randomUUID()}%40ejemplo.mx&contrasena=abcdefghijkl`);
      expect(post.status).toBe(421);
      const login = await send(base, 'POST', '/panel/entrar', { host, 'content-type': 'application/x-www-form-urlencoded' }, `correo=${email}&contrasena=x`);
      expect(login.status).toBe(421);
    }
    // Behind the proxy, the name it forwards is checked too.
    expect((await send(base, 'GET', '/panel/entrar', { 'x-forwarded-host': 'atacante.example' })).status).toBe(421);
    const after = new Database(registry, { readonly: true });
    expect((after.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n).toBe(accounts);
    expect((after.prepare("SELECT count(*) AS n FROM attempts WHERE key = ?").get(`cuenta:${email}`) as { n: number }).n).toBe(0);
    after.close();
    // The API is not the panel: its answers are the same under any name.
    expect((await send(base, 'GET', '/query/info_cp/09810?token=pruebas', { host: 'atacante.example' })).status).toBe(200);
  });

  it('serves IP addresses, localhost and the names given with --panel-host, in any case', async () => {
    const port = new URL(base).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `Panel.Ejemplo.MX`, 'panel.ejemplo.mx.', `panel.ejemplo.mx:${port}`]) {
      expect([host, (await send(base, 'GET', '/panel/entrar', { host })).status]).toEqual([host, 200]);
    }
  });
});

describe('20: ?aviso= names only its own notices', () => {
  it('__proto__, constructor and toString show no notice and no error', async () => {
    const { client } = await signedUp('Curiosa');
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      for (const path of ['/panel/', '/panel/entrar']) {
        const page = await (path === '/panel/' ? client.get(`${path}?aviso=${name}`) : send(base, 'GET', `${path}?aviso=${name}`));
        expect([name, path, page.status]).toEqual([name, path, 200]);
        expect(page.body).toContain('<div id="aviso" class="aviso" role="status" aria-live="polite"></div>');
      }
    }
  });
});
