/**
 * The control panel as a person uses it, in a real browser (Chromium through playwright-core)
 * against `cpmx serve --panel` on SQLite (issue 22, item 19, and item 15 as a browser plants
 * it): what Back and reload do after a form, notices shown once, confirmations before a
 * token is replaced or an account disabled, pages that neither overflow at 1,280 px nor pan
 * at 375 px, a chart readable on a phone, what to do at 0 credits, times in the reader's
 * zone, a deep link kept across log-in, a second tab's log-in, and a session cookie planted
 * by a page on another port. Screenshots at both widths go to CPMX_PANEL_SCREENSHOTS when set.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, FIXTURE, tempDir } from '../helpers.js';
import { BROWSER_INSTALL_TIMEOUT, launchBrowser } from '../support/browser.js';
import { listen } from '../support/http.js';
import { createAdmin, PanelClient, send } from '../support/panel.js';
import { startServe, type Served } from '../support/serve.js';

const dir = tempDir();
const shots = process.env.CPMX_PANEL_SCREENSHOTS ?? join(dir, 'shots');
mkdirSync(shots, { recursive: true });
const registry = join(dir, 'usable.db');
const PASSWORD = 'contraseña de prueba';
const ADMIN = { email: 'admin@ejemplo.mx', password: 'contraseña del administrador' };
let browser: Browser;
let served: Served;
let base: string;

beforeAll(async () => {
  const data = await buildInto(FIXTURE, dir);
  expect(await createAdmin(registry, ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
  served = await startServe(['--registry', registry, '--data', data, '--panel', '--panel-behind-proxy']);
  base = served.url;
  browser = await launchBrowser();
}, BROWSER_INSTALL_TIMEOUT);

afterAll(async () => {
  await served?.stop();
});

async function open(options: { width?: number; height?: number; timezoneId?: string } = {}): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 }, locale: 'es-MX', timezoneId: options.timezoneId ?? 'UTC' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // A 4xx answer (a form refused on purpose) is logged by the browser too: not a problem of the page.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource: the server responded with a status of 4')) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { context, page, problems };
}

async function logIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  if (!page.url().includes('/panel/entrar')) await page.goto(`${base}/panel/entrar`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForLoadState();
}

/** A new account (signed up over HTTP, in a client of its own) with `projects` projects; its email. */
async function account(name: string, projects: string[] = []): Promise<{ email: string; client: PanelClient; ids: number[] }> {
  // Each from an address of its own (the server is told it is behind a proxy): sign-ups are limited per address.
  const client = new PanelClient(base, { 'x-forwarded-for': `10.19.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${randomUUID().slice(0, 8)}@ejemplo.mx`;
  expect((await client.signUp(name, email, PASSWORD)).status).toBe(303);
  const ids: number[] = [];
  for (const project of projects) ids.push(await client.createProject(project));
  return { email, client, ids };
}

const text = async (page: Page, selector: string) => (await page.locator(selector).innerText()).replace(/\s+/g, ' ').trim();

describe('forms, Back and reload', () => {
  it('a failed form is shown at its page’s address: reload and Back neither post it again nor say “Método no permitido”; a notice shows once', async () => {
    const { email } = await account('Recarga');
    const { context, page, problems } = await open();
    await logIn(page, email);
    await page.getByLabel('Nombre del proyecto').fill('x'.repeat(101));
    await page.getByRole('button', { name: 'Crear proyecto' }).click();
    await page.getByRole('alert').waitFor();
    await page.waitForURL(`${base}/panel/`);
    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(200);
    expect(reloaded?.request().method()).toBe('GET');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await text(page, 'h1')).toBe('Sus proyectos');

    await page.getByLabel('Nombre del proyecto').fill('Bien');
    await page.getByRole('button', { name: 'Crear proyecto' }).click();
    await page.locator('#aviso', { hasText: 'Proyecto creado.' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`^${base}/panel/proyectos/\\d+$`));
    const project = page.url().slice(base.length);
    await page.reload();
    expect(await text(page, '#aviso')).toBe('');
    const back = await page.goBack();
    expect(back?.request().method()).toBe('GET');
    expect(await text(page, 'h1')).toBe('Sus proyectos');
    expect(await page.getByRole('alert').count()).toBe(0);

    // A form's address typed or bookmarked goes to its page, not to “Método no permitido”.
    for (const [path, to] of [['/panel/proyectos', '/panel/'], [`${project}/nombre`, project]] as const) {
      const answer = await page.goto(base + path);
      expect([path, answer?.status(), page.url()]).toEqual([path, 200, base + to]);
    }
    // A wrong password: the page is the log-in page's, and reloading it tries nothing again.
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill('no es la contraseña');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('alert').waitFor();
    await page.waitForURL(`${base}/panel/entrar`);
    expect((await page.reload())?.request().method()).toBe('GET');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a second tab’s log-in form is accepted after the first tab logged in', async () => {
    const { email } = await account('Dos pestañas');
    const { context, page } = await open();
    const second = await context.newPage();
    await page.goto(`${base}/panel/entrar`);
    await second.goto(`${base}/panel/entrar`);
    await logIn(page, email);
    expect(await text(page, 'h1')).toBe('Sus proyectos');
    await logIn(second, email);
    expect(await text(second, 'h1')).toBe('Sus proyectos');
    expect(second.url()).toBe(`${base}/panel/`);
    await context.close();
  });

  it('a deep link is kept across log-in', async () => {
    const { email, ids } = await account('Enlace', ['Enlazado']);
    const { context, page } = await open();
    await page.goto(`${base}/panel/proyectos/${ids[0]}`);
    expect(page.url()).toBe(`${base}/panel/entrar?volver=%2Fpanel%2Fproyectos%2F${ids[0]}`);
    await logIn(page, email, 'una equivocada');
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(`${base}/panel/proyectos/${ids[0]}`);
    expect(await text(page, 'h1')).toBe('Enlazado');
    // Only panel addresses: another site is never where a log-in goes.
    for (const volver of ['//atacante.example/panel/', 'https://atacante.example/', '/panel/\\\\atacante.example']) {
      const login = await send(base, 'GET', `/panel/entrar?volver=${encodeURIComponent(volver)}`);
      expect(login.body).not.toContain('name="volver"');
    }
    await context.close();
  });
});

describe('confirmations', () => {
  it('a new token and disabling an account are asked for first; Cancel changes nothing', async () => {
    const { email, ids } = await account('Confirma', ['Con token']);
    const { context, page } = await open();
    await logIn(page, email);
    await page.goto(`${base}/panel/proyectos/${ids[0]}`);
    const token = await page.locator('#token').inputValue();
    await page.getByRole('link', { name: 'Crear un token nuevo…' }).click();
    expect(await text(page, 'h1')).toBe('Token nuevo para Con token');
    await page.getByRole('link', { name: 'Cancelar' }).click();
    expect(await page.locator('#token').inputValue()).toBe(token);
    await page.getByRole('link', { name: 'Crear un token nuevo…' }).click();
    await page.getByRole('button', { name: 'Sí, crear un token nuevo' }).click();
    await page.locator('#aviso', { hasText: 'Token nuevo creado' }).waitFor();
    expect(await page.locator('#token').inputValue()).not.toBe(token);

    const admin = await open();
    await logIn(admin.page, ADMIN.email, ADMIN.password);
    await admin.page.goto(`${base}/panel/admin`);
    await admin.page.getByRole('link', { name: `Desactivar ${email}…` }).click();
    expect(await text(admin.page, 'h1')).toBe('Desactivar Confirma');
    await admin.page.getByRole('link', { name: 'Cancelar' }).click();
    expect(await text(admin.page, `#cuenta-${await idOf(email)} td:nth-of-type(4)`)).toBe('Activa');
    await admin.page.getByRole('link', { name: `Desactivar ${email}…` }).click();
    await admin.page.getByRole('button', { name: `Sí, desactivar ${email}` }).click();
    await admin.page.locator('#aviso', { hasText: 'Cuenta desactivada' }).waitFor();
    expect(await text(admin.page, `#cuenta-${await idOf(email)} td:nth-of-type(4)`)).toBe('Desactivada');
    await Promise.all([context.close(), admin.context.close()]);
  });
});

function idOf(email: string): number {
  const db = new Database(registry, { readonly: true });
  try {
    return (db.prepare('SELECT id FROM accounts WHERE email = ?').get(email) as { id: number }).id;
  } finally {
    db.close();
  }
}

describe('what a page tells', () => {
  it('at 0 credits, what to do; times in the reader’s own time zone', async () => {
    const { email, client, ids } = await account('Sin saldo', ['Gastado']);
    const token = await client.tokenOf(ids[0]!);
    for (let i = 0; i < 51; i++) await fetch(`${base}/query/info_cp/09810?token=${token}`);
    const { context, page } = await open({ timezoneId: 'America/Mexico_City' });
    await logIn(page, email);
    expect(await text(page, '#sin-creditos')).toMatch(/^Sin créditos, las consultas con sus tokens responden 108 .*pida créditos al administrador/);
    const created = page.locator('tbody time').first();
    const utc = (await created.getAttribute('datetime'))!;
    const shown = await created.innerText();
    expect(shown).not.toMatch(/UTC$/);
    const local = new Date(new Date(utc).getTime() - 6 * 3600_000);
    expect(shown).toContain(`:${String(local.getUTCMinutes()).padStart(2, '0')}`);
    expect(shown).toMatch(/GMT-6|CST/);
    expect(await created.getAttribute('title')).toBe(`${utc.slice(0, 10)} ${utc.slice(11, 16)} UTC`);
    await page.goto(`${base}/panel/proyectos/${ids[0]}`);
    expect(await page.locator('#errores time').first().innerText()).toMatch(/GMT-6|CST/);
    await context.close();
  });
});

describe('every page at 375 px and at 1,280 px', () => {
  it('fits: nothing pans at 375 px, the administrator’s table needs no scrolling at 1,280 px, and the chart’s text is readable on a phone', async () => {
    const { email, client, ids } = await account('Tienda con un nombre bastante largo, S.A. de C.V.', ['Sitio web', 'Aplicación móvil']);
    const token = await client.tokenOf(ids[0]!);
    for (let i = 0; i < 5; i++) await fetch(`${base}/query/info_cp/09810?token=${token}`);
    await fetch(`${base}/query/info_cp/09810?token=${randomUUID()}`);
    for (let i = 0; i < 6; i++) await account(`Cuenta número ${i} con un correo largo`);
    for (const width of [375, 1280]) {
      const user = await open({ width, height: 800 });
      const admin = await open({ width, height: 800 });
      await user.page.goto(`${base}/panel/registro`);
      await user.page.screenshot({ path: join(shots, `registro-${width}.png`), fullPage: true });
      await logIn(user.page, email);
      await logIn(admin.page, ADMIN.email, ADMIN.password);
      const pages: [Page, string, string][] = [
        [user.page, 'entrar', '/panel/entrar?aviso=salio'],
        [user.page, 'proyectos', '/panel/'],
        [user.page, 'proyecto', `/panel/proyectos/${ids[0]}`],
        [user.page, 'token', `/panel/proyectos/${ids[0]}/token`],
        [admin.page, 'cuentas', '/panel/admin'],
        [admin.page, 'desactivar', `/panel/admin/cuentas/${await idOf(email)}/estado`],
      ];
      for (const [page, name, path] of pages) {
        await page.goto(base + path);
        await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
        const pans = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
        expect([width, name, pans]).toEqual([width, name, 0]);
      }
      if (width === 1280) {
        await admin.page.goto(`${base}/panel/admin`);
        const overflow = (await admin.page.evaluate("(() => { const t = document.querySelector('.tabla'); return t.scrollWidth - t.clientWidth; })()")) as number;
        expect(overflow).toBe(0);
      } else {
        await user.page.goto(`${base}/panel/proyectos/${ids[0]}`);
        const sizes = (await user.page.evaluate("[...document.querySelectorAll('svg text.eje')].map((t) => t.getBoundingClientRect().height)")) as number[];
        expect(sizes.length).toBeGreaterThan(0);
        // At least 11 CSS pixels tall once the chart is scaled to the phone's width.
        expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);
      }
      expect([...user.problems, ...admin.problems]).toEqual([]);
      await Promise.all([user.context.close(), admin.context.close()]);
    }
  });
});

describe('a session cookie planted by a page on another port of the same host', () => {
  it('is not used: the person is asked to log in again, never shown the planter’s account', async () => {
    const attacker = await account('Atacante');
    const planted = attacker.client.cookies.get('cpmx_sesion')!;
    const { email } = await account('Víctima');
    let plantings = 0;
    const other = await listen((req, res) => {
      // Planted once, by the page itself (not again by the browser's later favicon request: a
      // cookie planted again after the panel cleared both is the single planted cookie that
      // plain HTTP cannot tell from the panel's own, as the README says).
      if (req.url !== '/' || plantings++ > 0) {
        res.writeHead(404).end();
        return;
      }
      // Path=/panel/ is longer than the panel's Path=/panel: a browser sends it first.
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Set-Cookie': `cpmx_sesion=${planted}; Path=/panel/; SameSite=Lax` });
      res.end('<!doctype html><title>Otra página</title><link rel="icon" href="data:,"><p>Hola</p>');
    });
    const { context, page } = await open();
    await logIn(page, email);
    expect(await text(page, 'header .quien')).toContain('Víctima');
    await page.goto(`${other.url}/`);
    await page.goto(`${base}/panel/`);
    expect(await page.content()).not.toContain('Atacante');
    expect(page.url()).toBe(`${base}/panel/entrar`);
    expect(await text(page, '#aviso')).toContain('Su navegador enviaba dos cookies de sesión');
    await logIn(page, email);
    expect(await text(page, 'header .quien')).toContain('Víctima');
    expect((await context.cookies()).filter((c) => c.name === 'cpmx_sesion')).toHaveLength(1);
    await context.close();
    await other.close();
  });
});
