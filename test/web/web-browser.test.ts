/**
 * cpmx/web in Chromium: a page served by a plain static server (bench/static-server.ts, gzip
 * and the README's cache headers) loads dist/web.js, answers 200 random codes and the selects
 * flow of 20 random states with fresh clients and the browser's cache off, each body compared
 * with the Node client's as JSON text, the bytes fetched recorded from the page's resource
 * timings (compressed bodies); a Web Worker answers too; the address form's helper fills and
 * disables its selects; missing, stale and damaged trees give their errors in the page.
 */
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { WEB_PAGE, timeAnswer } from '../../bench/measure/web.js';
import { staticServer } from '../../bench/static-server.js';
import { createClient, type CpmxClient } from '../../src/index.js';
import { buildInto, realCatalogPath, root, tempDir } from '../helpers.js';
import { BROWSER_INSTALL_TIMEOUT, launchBrowser } from '../support/browser.js';
import { listen } from '../support/http.js';
import { callOn, exportWeb, methodCalls, randomCodes, randomFlows, type Call } from '../support/web.js';

// The page's globals, for the functions that run in it (the tests compile without the DOM's types).
// biome-ignore lint/suspicious/noExplicitAny: the page's objects, typed where they are used
type Dom = any;
declare const document: Dom;
declare const Worker: Dom;
declare const Event: Dom;
type HTMLSelectElement = Dom;
type HTMLInputElement = Dom;
type HTMLOptionElement = Dom;
type PerformanceResourceTiming = { encodedBodySize: number };

const dir = tempDir();
const tree = join(dir, 'tree');
const pages = join(dir, 'pages');
let node: CpmxClient;
let browser: Browser;
let page: Page;
let site: string;

const PAGE = `<!doctype html><meta charset="utf-8"><title>cpmx/web</title>
<label>Código postal <input id="cp" inputmode="numeric" maxlength="5"></label>
<label>Estado <select id="estado"></select></label>
<label>Municipio <select id="municipio"></select></label>
<label>Colonia <select id="colonia"></select></label>
<script type="module">
import * as web from '/lib/web.js';
import * as form from '/lib/web-form.js';
globalThis.web = web;
globalThis.form = form;
</script>`;

const WORKER = `import { createWebClient } from '/lib/web.js';
onmessage = async (event) => {
  const client = createWebClient({ base: '/tree/', token: 'demo' });
  postMessage(await Promise.all(event.data.map((cp) => client.infoCp(cp).then((body) => JSON.stringify(body)))));
};`;

interface Measured {
  bodies: string[];
  bytes: number;
}

/** Runs `calls` in the page with a fresh client each group, the cache off: the bodies as JSON text and the compressed bytes the group fetched. */
function runInPage(groups: Call[][], base = '/tree/'): Promise<Measured[]> {
  return page.evaluate(
    async ({ groups, base }) => {
      const { createWebClient } = (globalThis as unknown as { web: typeof import('../../src/web/index.js') }).web;
      const out: Measured[] = [];
      for (const calls of groups) {
        performance.clearResourceTimings();
        const client = createWebClient({ base, token: 'demo' }) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
        const bodies: string[] = [];
        for (const [method, ...args] of calls) bodies.push(JSON.stringify(await client[method as string]!(...args)));
        const entries = performance.getEntriesByType('resource') as unknown as PerformanceResourceTiming[];
        out.push({ bodies, bytes: entries.reduce((sum, entry) => sum + entry.encodedBodySize, 0) });
      }
      return out;
    },
    { groups, base },
  );
}

beforeAll(async () => {
  const artifact = await buildInto(realCatalogPath(), dir);
  node = createClient({ token: 'demo', dataPath: artifact });
  expect(exportWeb(artifact, tree).status).toBe(0);
  mkdirSync(pages);
  writeFileSync(join(pages, 'index.html'), PAGE);
  writeFileSync(join(pages, 'worker.js'), WORKER);
  writeFileSync(join(pages, 'cold.html'), WEB_PAGE);
  site = (await listen(staticServer({ '/tree/': tree, '/lib/': join(root, 'dist'), '/sites/': dir, '/': pages }))).url;
  browser = await launchBrowser();
  page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Cold: every client fetches its files from the server, as a first visit does.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.goto(`${site}/`);
  await page.waitForFunction(() => 'web' in globalThis && 'form' in globalThis);
  expect(errors).toEqual([]);
}, BROWSER_INSTALL_TIMEOUT);

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const median = (values: number[]) => values.slice().sort((a, b) => a - b)[values.length >> 1]!;

describe('cpmx/web in Chromium', () => {
  it('answers 200 random codes as the Node client does, at most 4 KB gzipped each on average from a cold cache', async () => {
    const codes = randomCodes(node, 200, 2300);
    const measured = await runInPage(codes.map((cp, i) => [i % 2 ? ['infoCp', cp] : ['infoCp', cp, { type: 'simplified' }]]));
    expect(measured.map(({ bodies }) => bodies[0])).toEqual(codes.map((cp, i) => JSON.stringify(i % 2 ? node.infoCp(cp) : node.infoCp(cp, { type: 'simplified' }))));
    const bytes = measured.map((m) => m.bytes);
    expect(Math.min(...bytes)).toBeGreaterThan(0);
    console.log(`cpmx/web: one code costs ${mean(bytes).toFixed(0)} bytes gzipped on average over 200 random codes, cold (median ${median(bytes)}, largest ${Math.max(...bytes)})`);
    expect(mean(bytes)).toBeLessThanOrEqual(4 * 1024);
  });

  it('answers the selects flow of 20 random states as the Node client does, at most 30 KB, typically 5 KB', async () => {
    const flows = randomFlows(node, 20, 2301);
    const calls: Call[][] = flows.map(([estado, municipio]) => [['getEstados'], ['getMunicipioPorEstado', estado], ['getColoniaPorEstadoMunicipio', estado, municipio]]);
    const measured = await runInPage(calls);
    expect(measured.map(({ bodies }) => bodies)).toEqual(calls.map((flow) => flow.map((call) => JSON.stringify(callOn(node, call)))));
    const bytes = measured.map((m) => m.bytes);
    console.log(`cpmx/web: a form's three selects cost ${median(bytes)} bytes gzipped typically (median of 20 random states), ${Math.max(...bytes)} at most`);
    expect(Math.max(...bytes)).toBeLessThanOrEqual(30 * 1024);
    expect(median(bytes)).toBeLessThanOrEqual(5 * 1024);
  });

  it('answers a cold page’s first code in one round of fetches beside the module (its size: web-module-size.test.ts) and loads its name reading only for a written name', async () => {
    type Resource = { name: string; start: number; end: number };
    const times: number[] = [];
    for (let run = 0; run < 7; run++) {
      // A new context is a new profile: nothing cached, as a first visit.
      const context = await browser.newContext();
      const cold = await context.newPage();
      const [ms, length] = await timeAnswer(cold, `${site}/cold.html`);
      expect(length).toBeGreaterThan(0);
      times.push(ms);
      const resources = (): Promise<Resource[]> =>
        cold.evaluate(() => (performance.getEntriesByType('resource') as unknown as { name: string; startTime: number; responseEnd: number }[]).map((e) => ({ name: e.name.split('/').pop()!, start: e.startTime, end: e.responseEnd })).filter((resource) => /\.(js|json)$/.test(resource.name)));
      const first = await resources();
      // The names prove the order without a clock (which a loaded machine would make lie): one
      // manifest entry, so the page's preload of it was the client's fetch; the shard by its direct
      // name, so it was asked for before the digit's index (which names its hash) had arrived.
      expect(first.map((resource) => resource.name).sort()).toEqual(['c098.json', 'd0.json', 'manifest.json', 'web.js']);
      if (run === 0) {
        // A written name loads the name reading, and answers as the Node client does.
        // (A string: vitest would rewrite an import() in a function.)
        const body = await cold.evaluate("import('/lib/web.js').then((web) => web.createWebClient({ base: '/tree/', token: 'demo' }).getMunicipioPorEstado('N.L.')).then(JSON.stringify)");
        expect(body).toBe(JSON.stringify(node.getMunicipioPorEstado('N.L.')));
        expect((await resources()).map((resource) => resource.name)).toContain('web-extra.js');
      }
      await context.close();
    }
    console.log(
      `cpmx/web: first answer of a cold page ${median(times).toFixed(0)} ms median of ${times.length} in this run (target ≤ 50 ms on a quiet machine: npm run bench times it)`,
    );
  });

  it('answers every method with the Node client’s body', async () => {
    const calls = methodCalls(node, 2302);
    const [measured] = await runInPage([calls]);
    expect(measured!.bodies).toEqual(calls.map((call) => JSON.stringify(callOn(node, call))));
  });

  it('answers in a Web Worker', async () => {
    const codes = randomCodes(node, 20, 2303);
    const bodies = await page.evaluate(
      (codes) =>
        new Promise<string[]>((resolve, reject) => {
          const worker = new Worker('/worker.js', { type: 'module' });
          worker.onmessage = (event: { data: string[] }) => resolve(event.data);
          worker.onerror = (event: { message: string }) => reject(new Error(event.message));
          worker.postMessage(codes);
        }),
      codes,
    );
    expect(bodies).toEqual(codes.map((cp) => JSON.stringify(node.infoCp(cp))));
  });

  it('refuses missing, stale and damaged trees with errors that say so', async () => {
    // Copies of what answering 44100 reads: the manifest, the digits' indexes, the shard (under its hashed and its direct name).
    const copy = (name: string) => {
      mkdirSync(join(dir, name));
      for (const file of readdirSync(tree).filter((file) => /^(manifest|d\d|c441)\./.test(file))) cpSync(join(tree, file), join(dir, name, file));
      return [join(dir, name, readdirSync(tree).find((file) => /^c441\.[0-9a-f]{8}\.json$/.test(file))!), join(dir, name, 'c441.json')];
    };
    for (const file of copy('stale')) rmSync(file);
    for (const file of copy('damaged')) writeFileSync(file, readFileSync(file, 'utf8').replace('Guadalajara', 'Guadalajaro'));
    const problems = await page.evaluate(async () => {
      const { createWebClient } = (globalThis as unknown as { web: typeof import('../../src/web/index.js') }).web;
      const problem = (base: string) =>
        createWebClient({ base, token: 'demo' })
          .infoCp('44100')
          .then(
            () => 'answered',
            (error: { name: string; problem: string; message: string }) => `${error.name} ${error.problem}: ${error.message}`,
          );
      return Promise.all(['/nothing/', '/sites/stale/', '/sites/damaged/'].map(problem));
    });
    expect(problems[0]).toMatch(/^WebTreeError missing: cpmx\/web: no web tree at http:\/\/127\.0\.0\.1:\d+\/nothing\/ \(manifest\.json answered 404\)/);
    expect(problems[1]).toMatch(/^WebTreeError stale: .*c441\.[0-9a-f]{8}\.json is named by the manifest but not on the server/);
    expect(problems[2]).toMatch(/^WebTreeError damaged: .*c441\.[0-9a-f]{8}\.json is damaged/);
  });
});

describe('the address form helper in Chromium', () => {
  it('fills the selects from the keyboard and from a typed code, disabled and busy while a list loads', async () => {
    const result = await page.evaluate(async () => {
      const { web, form } = globalThis as unknown as { web: typeof import('../../src/web/index.js'); form: typeof import('../../src/web/form-entry.js') };
      let open: () => void = () => {};
      let gate = Promise.resolve();
      // A fetch held at a gate, to see the selects while a list is on its way.
      const client = web.createWebClient({ base: '/tree/', token: 'demo', fetch: (input, init) => gate.then(() => fetch(input, init)) });
      const $ = (id: string) => document.getElementById(id) as HTMLSelectElement;
      const cp = document.getElementById('cp') as HTMLInputElement;
      const { ready } = form.bindAddressForm({ client, estado: $('estado'), municipio: $('municipio'), colonia: $('colonia'), cp });
      await ready;
      const states = [...$('estado').options].map((o) => o.value);
      gate = new Promise((resolve) => (open = resolve));
      $('estado').value = 'Colima';
      $('estado').dispatchEvent(new Event('change'));
      const loading = { disabled: $('municipio').disabled, busy: $('municipio').getAttribute('aria-busy') };
      open();
      const filled = () => new Promise<void>((resolve) => {
        const check = () => ($('municipio').disabled ? setTimeout(check, 5) : resolve());
        check();
      });
      await filled();
      return { states, loading, municipios: [...$('municipio').options].map((o) => o.value), colonia: $('colonia').disabled, cp: cp.id };
    });
    expect(result.states).toEqual(['', ...(node.getEstados() as { response: { estado: string[] } }).response.estado]);
    expect(result.loading).toEqual({ disabled: true, busy: 'true' });
    expect(result.municipios).toEqual(['', ...(node.getMunicipioPorEstado('Colima') as { response: { municipios: string[] } }).response.municipios]);
    expect(result.colonia).toBe(true);

    // The keyboard: the municipality select takes an arrow key, and its settlements load.
    await page.focus('#municipio');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => !(document.getElementById('colonia') as HTMLSelectElement).disabled);
    const chosen = await page.$eval('#municipio', (select) => (select as HTMLSelectElement).value);
    const colonias = await page.$$eval('#colonia option', (options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(colonias).toEqual(['', ...(node.getColoniaPorEstadoMunicipio('Colima', chosen) as { response: { colonia: string[] } }).response.colonia]);

    // A typed code fills all three.
    await page.focus('#cp');
    await page.keyboard.type('09810');
    await page.waitForFunction(() => (document.getElementById('municipio') as HTMLSelectElement).value === 'Iztapalapa');
    const selected = await page.evaluate(() => ['estado', 'municipio', 'colonia'].map((id) => (document.getElementById(id) as HTMLSelectElement).value));
    expect(selected).toEqual(['Ciudad de México', 'Iztapalapa', '']);
    const options = await page.$$eval('#colonia option', (o) => o.map((option) => (option as HTMLOptionElement).value));
    expect(options).toEqual(['', ...(node.infoCp('09810', { type: 'simplified' }) as { response: { asentamiento: string[] } }).response.asentamiento]);
    // A code the catalog lacks marks the field invalid.
    await page.fill('#cp', '');
    await page.keyboard.type('00000');
    await page.waitForFunction(() => document.getElementById('cp')!.getAttribute('aria-invalid') === 'true');
  });
});
