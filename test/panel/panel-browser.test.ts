/**
 * The control panel in a real browser (Chromium, headless, through playwright-core: test/support/browser.ts says which)
 * against a real `cpmx serve --panel`: a person signs up, creates a project, copies its token
 * with the copy button, spends the credits through the API and sees it on the page, then
 * regenerates the token; on SQLite and on a real PostgreSQL. Then what a browser alone can
 * show: hostile names stay text (no script runs), the pages work from the keyboard and
 * without JavaScript, and nothing breaks the Content-Security-Policy. Screenshots of the main
 * pages are taken on the way (into CPMX_PANEL_SCREENSHOTS when set: the README's).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, FIXTURE, tempDir } from '../helpers.js';
import { BROWSER_INSTALL_TIMEOUT, launchBrowser } from '../support/browser.js';
import { listen } from '../support/http.js';
import { createAdmin } from '../support/panel.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startServe, tokensOk, type Served } from '../support/serve.js';

const dir = tempDir();
const shots = process.env.CPMX_PANEL_SCREENSHOTS ?? join(dir, 'shots');
mkdirSync(shots, { recursive: true });
const PASSWORD = 'contraseña de prueba';
const ADMIN = { email: 'admin@ejemplo.mx', password: 'contraseña del administrador' };
let browser: Browser;
let data: string;

beforeAll(async () => {
  data = await buildInto(FIXTURE, dir);
  browser = await launchBrowser();
}, BROWSER_INSTALL_TIMEOUT);

/** A fresh browser profile, clipboard allowed; every dialog (an alert from injected script) and every console error is recorded. */
async function open(base: string, options: { javaScript?: boolean } = {}) {
  const context = await browser.newContext({ javaScriptEnabled: options.javaScript ?? true, viewport: { width: 960, height: 720 }, locale: 'es-MX' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const problems: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { context, page, dialogs, problems };
}

async function signUp(page: Page, base: string, name: string, email: string): Promise<void> {
  await page.goto(`${base}/panel/`);
  await page.getByRole('link', { name: 'Cree una cuenta gratis' }).click();
  await page.getByLabel('Su nombre o el de su organización').fill(name);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sus proyectos' }).waitFor();
}

async function createProject(page: Page, name: string): Promise<void> {
  await page.getByLabel('Nombre del proyecto').fill(name);
  await page.getByRole('button', { name: 'Crear proyecto' }).click();
  await page.locator('#token').waitFor();
}

/** The API's answer to `/query/info_cp/09810` with `token`: HTTP status and code_error (0 for data). */
async function query(base: string, token: string): Promise<[number, number]> {
  const response = await fetch(`${base}/query/info_cp/09810?token=${token}&type=simplified`);
  const body = (await response.json()) as { code_error?: number } | unknown[];
  return [response.status, Array.isArray(body) ? 0 : (body.code_error ?? -1)];
}

const text = async (page: Page, selector: string) => (await page.locator(selector).innerText()).replace(/\s+/g, ' ').trim();

interface Store {
  name: string;
  registry(): Promise<string>;
  /** Where the README's screenshots come from (one store is enough). */
  screenshots: boolean;
}

let postgres: TestPostgres | undefined;
afterAll(async () => {
  await postgres?.destroy();
});

const STORES: Store[] = [
  {
    name: 'SQLite',
    screenshots: true,
    async registry() {
      const path = join(dir, `${randomUUID()}.db`);
      await tokensOk(['create', '--registry', path, '--name', 'Del operador']);
      return path;
    },
  },
  {
    name: 'PostgreSQL',
    screenshots: false,
    async registry() {
      postgres = await startPostgres();
      return postgres.createDatabase('panel');
    },
  },
];

describe.each(STORES)('on $name: sign up, a project, its token copied and spent, a new token', (store) => {
  let served: Served;
  let base: string;

  beforeAll(async () => {
    const registry = await store.registry();
    expect(await createAdmin(registry, ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
    served = await startServe(['--registry', registry, '--data', data, '--panel', '--workers', '2']);
    base = served.url;
  });

  afterAll(async () => {
    await served?.stop();
  });

  it('shows 50 free credits, copies the token, counts each query (50 → 49 → 0, then 108), and a new token refuses the old one (107)', async () => {
    const { context, page, dialogs, problems } = await open(base);
    await page.goto(`${base}/panel/`);
    expect(page.url()).toBe(`${base}/panel/entrar`);
    if (store.screenshots) await page.screenshot({ path: join(shots, 'entrar.png') });
    await signUp(page, base, 'Tienda Ejemplo', `tienda-${randomUUID().slice(0, 8)}@ejemplo.mx`);
    expect(await text(page, '#aviso')).toBe('Su cuenta está lista. Cree un proyecto para obtener su token.');
    expect(await text(page, '#creditos')).toBe('50 créditos disponibles en su cuenta, para todos sus proyectos.');

    await createProject(page, 'Tienda en línea');
    expect(await text(page, 'h1')).toBe('Tienda en línea');
    expect(await text(page, '#aviso')).toBe('Proyecto creado. Su token está abajo.');
    const shown = await page.locator('#token').inputValue();
    expect(shown).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await page.getByRole('button', { name: 'Copiar token' }).click();
    await page.locator('#copiado', { hasText: 'Token copiado al portapapeles.' }).waitFor();
    const token = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(token).toBe(shown);

    expect(await query(base, token)).toEqual([200, 0]);
    await page.reload();
    expect(await text(page, '#creditos')).toBe('49 créditos disponibles en su cuenta, para todos sus proyectos.');
    expect(await text(page, '#peticiones-hoy')).toBe('1');
    expect(await text(page, '#creditos-hoy')).toBe('1');
    expect(await page.locator('svg rect.barra').count()).toBe(1);
    expect(await page.getByRole('img', { name: /Peticiones por día, últimos 30 días/ }).count()).toBe(1);

    // The other 49, seven at a time, then one more: 108.
    for (let i = 0; i < 7; i++) {
      const answers = await Promise.all(Array.from({ length: 7 }, () => query(base, token)));
      expect(answers).toEqual(Array(7).fill([200, 0]));
    }
    expect(await query(base, token)).toEqual([402, 108]);
    await page.reload();
    expect(await text(page, '#creditos')).toBe('0 créditos disponibles en su cuenta, para todos sus proyectos.');
    expect(await text(page, '#peticiones-hoy')).toBe('51');
    expect(await text(page, '#errores tbody tr')).toMatch(/ 108 Sin créditos 1 el actual$/);

    await page.getByRole('link', { name: 'Crear un token nuevo…' }).click();
    await page.getByRole('button', { name: 'Sí, crear un token nuevo' }).click();
    await page.locator('#aviso', { hasText: 'Token nuevo creado: el anterior ya no funciona.' }).waitFor();
    const fresh = await page.locator('#token').inputValue();
    expect(fresh).not.toBe(token);
    expect(await query(base, token)).toEqual([401, 107]);
    expect(await query(base, fresh)).toEqual([402, 108]);
    await page.reload();
    expect(await text(page, '#errores tbody tr:first-child')).toMatch(/ 108 Sin créditos 1 el actual$/);
    expect(await text(page, '#errores tbody tr:nth-child(2)')).toMatch(new RegExp(` 107 Token no válido: .* 1 anterior, …${token.slice(-6)}$`));
    if (store.screenshots) await page.screenshot({ path: join(shots, 'proyecto.png'), fullPage: true });

    await page.getByRole('link', { name: '← Sus proyectos' }).click();
    await createProject(page, 'Aplicación móvil');
    await page.getByRole('link', { name: '← Sus proyectos' }).click();
    expect(await page.locator('tbody tr').count()).toBe(2);
    if (store.screenshots) await page.screenshot({ path: join(shots, 'proyectos.png') });

    // The administrator grants credits: the same token answers again.
    const admin = await open(base);
    await admin.page.goto(`${base}/panel/entrar`);
    await admin.page.getByLabel('Correo electrónico').fill(ADMIN.email);
    await admin.page.getByLabel('Contraseña').fill(ADMIN.password);
    await admin.page.getByRole('button', { name: 'Entrar' }).click();
    await admin.page.getByRole('link', { name: 'Cuentas' }).click();
    const row = admin.page.locator('tr', { hasText: 'Tienda Ejemplo' });
    await row.getByRole('spinbutton').fill('10');
    await row.getByRole('button', { name: 'Dar' }).click();
    await admin.page.locator('#aviso', { hasText: 'Créditos otorgados.' }).waitFor();
    expect(await admin.page.locator('tr', { hasText: 'Tienda Ejemplo' }).locator('td').first().innerText()).toBe('10');
    if (store.screenshots) {
      await admin.page.evaluate('window.scrollTo(0, 0)');
      await admin.page.screenshot({ path: join(shots, 'cuentas.png') });
    }
    expect(await query(base, fresh)).toEqual([200, 0]);

    expect(dialogs).toEqual([]);
    expect([...problems, ...admin.problems]).toEqual([]);
    await Promise.all([context.close(), admin.context.close()]);
    if (store.screenshots) {
      for (const name of ['entrar', 'proyectos', 'proyecto', 'cuentas']) {
        const png = readFileSync(join(shots, `${name}.png`));
        expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
        expect(png.length).toBeGreaterThan(10_000);
      }
    }
  });
});

describe('in the browser, on SQLite', () => {
  let served: Served;
  let base: string;

  beforeAll(async () => {
    const registry = join(dir, 'navegador.db');
    expect(await createAdmin(registry, ADMIN.email, ADMIN.password)).toMatchObject({ code: 0 });
    served = await startServe(['--registry', registry, '--data', data, '--panel']);
    base = served.url;
  });

  afterAll(async () => {
    await served?.stop();
  });

  it('shows hostile account and project names as text, stored or sent back in a form: no script runs, no element is made', async () => {
    const { context, page, dialogs } = await open(base);
    const script = '<script>alert(1)</script>';
    const image = '"><img src=x onerror=alert(2)>';
    const mixed = `<script>alert(3)</script>'"<b>negrita</b>`;
    const hostileEmail = `<svg/onload=alert(4)>${randomUUID().slice(0, 8)}@ejemplo.mx`;
    /** Nothing the payloads could have made: their elements, a second script, a dialog. */
    const clean = async () => {
      expect(await page.locator('img, svg[onload], b').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(1);
      expect(dialogs).toEqual([]);
    };

    // Sent back: the form comes back with what was typed (the address is not valid).
    await page.goto(`${base}/panel/registro`);
    await page.getByLabel('Su nombre o el de su organización').fill(script);
    await page.getByLabel('Correo electrónico').fill(`${image}@ejemplo.mx`);
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await page.getByLabel('Correo electrónico').evaluate((input) => input.setAttribute('type', 'text'));
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByLabel('Su nombre o el de su organización').inputValue()).toBe(script);
    expect(await page.getByLabel('Correo electrónico').inputValue()).toBe(`${image}@ejemplo.mx`);
    await clean();

    // Stored: an account and projects with those names, shown on every page.
    await page.getByLabel('Correo electrónico').evaluate((input) => input.setAttribute('type', 'text'));
    await page.getByLabel('Correo electrónico').fill(hostileEmail);
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await page.getByRole('heading', { name: 'Sus proyectos' }).waitFor();
    expect(await page.locator('header strong').innerText()).toBe(script);
    await createProject(page, image);
    expect(await page.locator('h1').innerText()).toBe(image);
    expect(await page.getByLabel(`Token de ${image}`).count()).toBe(1);
    await clean();
    await page.getByLabel('Nombre del proyecto').fill(mixed);
    await page.getByRole('button', { name: 'Guardar el nombre' }).click();
    await page.locator('#aviso', { hasText: 'Nombre guardado.' }).waitFor();
    expect(await page.locator('h1').innerText()).toBe(mixed);
    await clean();
    // Sent back again: a name too long returns to its field, as typed.
    const long = `${image}${'x'.repeat(100)}`;
    await page.getByLabel('Nombre del proyecto').fill(long);
    await page.getByRole('button', { name: 'Guardar el nombre' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByLabel('Nombre del proyecto').inputValue()).toBe(long);
    await clean();
    await page.getByRole('link', { name: '← Sus proyectos' }).click();
    expect(await page.getByRole('link', { name: mixed, exact: true }).count()).toBe(1);
    await clean();
    await page.getByRole('link', { name: mixed, exact: true }).click();
    await page.getByRole('link', { name: `Borrar ${mixed}…` }).click();
    expect(await page.locator('h1').innerText()).toBe(`Borrar ${mixed}`);
    await clean();

    // In the URL: nothing of it is shown.
    const inUrl = '<script>alert(77)</script>"><img src=x onerror=alert(78)>';
    for (const path of [`/panel/registro?aviso=${encodeURIComponent(inUrl)}`, `/panel/?aviso=${encodeURIComponent(inUrl)}`, `/panel/proyectos/${encodeURIComponent(inUrl)}`, `/panel/${encodeURIComponent(inUrl)}`]) {
      await page.goto(base + path);
      expect(await page.content()).not.toMatch(/alert\(7[78]\)/);
      await clean();
    }

    // The administrator's list shows the account's name and address as text.
    const admin = await open(base);
    await admin.page.goto(`${base}/panel/entrar`);
    await admin.page.getByLabel('Correo electrónico').fill(ADMIN.email);
    await admin.page.getByLabel('Contraseña').fill(ADMIN.password);
    await admin.page.getByRole('button', { name: 'Entrar' }).click();
    await admin.page.goto(`${base}/panel/admin`);
    const row = admin.page.locator('tbody tr', { hasText: hostileEmail });
    expect(await row.locator('th').innerText()).toBe(`${script}\n${hostileEmail}`);
    expect(await admin.page.getByRole('link', { name: `Desactivar ${hostileEmail}…` }).count()).toBe(1);
    expect(await admin.page.locator('svg[onload], img, b').count()).toBe(0);
    expect(admin.dialogs).toEqual([]);
    await Promise.all([context.close(), admin.context.close()]);
  });

  it('is used from the keyboard alone, in a sensible order, with every field labelled and every result announced', async () => {
    const { context, page } = await open(base);
    await page.goto(`${base}/panel/entrar`);
    const order: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      order.push((await page.evaluate("(() => { const a = document.activeElement; return a.tagName.toLowerCase() + ':' + (a.getAttribute('name') ?? a.textContent.trim()); })()")) as string);
    }
    expect(order).toEqual(['a:Saltar al contenido', 'a:cpmx · Panel de control', 'a:Entrar', 'a:Crear una cuenta', 'input:correo', 'input:contrasena', 'button:Entrar', 'a:Cree una cuenta gratis']);
    // The skip link takes the focus to the content; the next Tab is the form's first field.
    await page.reload();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('contenido');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('correo');

    // A wrong password: announced as an alert, the form keeps the address.
    await page.keyboard.type('nadie@ejemplo.mx');
    await page.keyboard.press('Tab');
    await page.keyboard.type('no es la contraseña');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('El correo o la contraseña no son correctos.');
    expect(await page.getByLabel('Correo electrónico').inputValue()).toBe('nadie@ejemplo.mx');

    // Sign up and create a project with the keyboard alone.
    await page.goto(`${base}/panel/registro`);
    expect(await page.locator('form').ariaSnapshot()).toBe(
      [
        '- text: Su nombre o el de su organización',
        '- textbox "Su nombre o el de su organización"',
        '- text: Correo electrónico',
        '- textbox "Correo electrónico"',
        '- text: Contraseña',
        '- textbox "Contraseña"',
        '- text: De 10 a 256 caracteres.',
        '- button "Crear cuenta"',
      ].join('\n'),
    );
    await page.getByLabel('Su nombre o el de su organización').focus();
    await page.keyboard.type('Teclado');
    await page.keyboard.press('Tab');
    await page.keyboard.type(`${randomUUID()}@ejemplo.mx`);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sus proyectos' }).waitFor();
    expect(await page.getByRole('status').first().innerText()).toBe('Su cuenta está lista. Cree un proyecto para obtener su token.');
    await page.getByLabel('Nombre del proyecto').focus();
    await page.keyboard.type('Con teclado');
    await page.keyboard.press('Enter');
    await page.locator('#token').waitFor();
    expect(await page.getByRole('status').first().innerText()).toBe('Proyecto creado. Su token está abajo.');
    const section = await page.locator('section[aria-labelledby="token-titulo"]').ariaSnapshot();
    // A region named by its heading, the token in a field named by its label, the button, and the live region.
    expect(section).toMatch(/^- region "Token":\n {2}- heading "Token" \[level=2\]\n/);
    expect(section).toMatch(/\n {2}- textbox "Token de Con teclado": [0-9a-f-]{36}\n {2}- button "Copiar token"\n/);
    expect(section).toContain('\n  - status\n');
    // The copy button from the keyboard: its result is announced in its own live region.
    await page.getByRole('button', { name: 'Copiar token' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#copiado', { hasText: 'Token copiado al portapapeles.' }).waitFor();
    expect(await page.locator('#copiado').getAttribute('aria-live')).toBe('polite');
    await context.close();
  });

  it('cannot be framed by another site (clickjacking): the browser refuses to show it in a frame', async () => {
    const other = await listen((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Otro sitio</title><iframe src="${base}/panel/entrar" width="600" height="400"></iframe>`);
    });
    const { context, page } = await open(other.url);
    const refused = page.waitForEvent('console', (message) => /frame-ancestors|X-Frame-Options/.test(message.text()));
    await page.goto(other.url);
    await refused;
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(await frame.locator('#correo').count()).toBe(0);
    await context.close();
  });

  it('works without JavaScript: the copy button is not offered, the token is there to select, every form works', async () => {
    const { context, page } = await open(base, { javaScript: false });
    await signUp(page, base, 'Sin JavaScript', `${randomUUID()}@ejemplo.mx`);
    await createProject(page, 'Sin script');
    expect(await page.getByRole('button', { name: 'Copiar token' }).isHidden()).toBe(true);
    const token = await page.locator('#token').inputValue();
    expect(await query(base, token)).toEqual([200, 0]);
    await page.getByLabel('Nombre del proyecto').fill('Renombrado sin script');
    await page.getByRole('button', { name: 'Guardar el nombre' }).click();
    await page.locator('#aviso', { hasText: 'Nombre guardado.' }).waitFor();
    await page.getByRole('link', { name: 'Crear un token nuevo…' }).click();
    await page.getByRole('button', { name: 'Sí, crear un token nuevo' }).click();
    await page.locator('#aviso', { hasText: 'Token nuevo creado' }).waitFor();
    expect(await page.locator('#token').inputValue()).not.toBe(token);
    await page.getByRole('link', { name: 'Borrar Renombrado sin script…' }).click();
    await page.getByRole('button', { name: 'Sí, borrar Renombrado sin script' }).click();
    await page.locator('#aviso', { hasText: 'Proyecto borrado.' }).waitFor();
    expect(await page.getByText('Aún no tiene proyectos.').count()).toBe(1);
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.locator('#aviso', { hasText: 'Cerró su sesión.' }).waitFor();
    await page.goto(`${base}/panel/`);
    expect(page.url()).toBe(`${base}/panel/entrar`);
    await context.close();
  });

});
