/**
 * cpmx in a web page: an esbuild browser bundle of an app that imports cpmx (the package's
 * `browser` build), loaded in headless Chromium, fetches the artifact and answers info_cp and
 * search_cp as the library does in Node, with nothing from Node in the bundle.
 */
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleForBrowser, type BrowserBundle } from '../../bench/measure/embed.js';
import { openApiDocument } from '../../src/http/openapi.js';
import { createClient } from '../../src/index.js';
import { VERSION } from '../../src/version.js';
import { root, tempDir } from '../helpers.js';
import { BROWSER_INSTALL_TIMEOUT, launchBrowser, systemChromium } from '../support/browser.js';
import { listen } from '../support/http.js';

const dir = tempDir();
const artifact = join(root, 'data', 'cpmx.msgpack');
let bundle: BrowserBundle;

beforeAll(async () => {
  // The app's project: cpmx installed as a package (a link to this checkout, whose exports esbuild reads).
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(root, join(dir, 'node_modules', 'cpmx'));
  bundle = await bundleForBrowser({ file: join(root, 'test', 'embed', 'apps', 'browser.mjs') }, [join(dir, 'node_modules')]);
});

describe('a browser bundle of the library', () => {
  it('is the web build, with nothing from Node', () => {
    expect(bundle.inputs.some((input) => input.endsWith('dist/cpmx.web.js'))).toBe(true);
    expect(bundle.inputs.filter((input) => input.startsWith('node:') || /dist\/cpmx\.(js|cjs)$/.test(input))).toEqual([]);
    // The size a page pays; README.md and bench/RESULTS.md give the measured figure.
    expect(bundle.gzipBytes).toBeLessThan(40 * 1024);
    // Split as app bundlers split it: only the handlers' request side (fetched at a handler's first
    // request) and the OpenAPI document's file (at GET /openapi.json) are left to chunks fetched on need.
    expect(Object.values(bundle.lazy).flatMap((chunk) => chunk.inputs).sort()).toEqual([expect.stringMatching(/dist\/cpmx-http\.web\.js$/), expect.stringMatching(/dist\/cpmx-openapi\.js$/)]);
  });

  it('answers info_cp and search_cp in headless Chromium from the fetched artifact', async () => {
    const files: Record<string, [string, Buffer]> = {
      '/': ['text/html; charset=utf-8', Buffer.from('<!doctype html><meta charset="utf-8"><title>cpmx</title><script type="module" src="/app.js"></script>')],
      '/app.js': ['text/javascript; charset=utf-8', Buffer.from(bundle.text)],
      '/cpmx.msgpack': ['application/octet-stream', readFileSync(artifact)],
      ...Object.fromEntries(Object.entries(bundle.lazy).map(([name, chunk]) => [`/${name}`, ['text/javascript; charset=utf-8', Buffer.from(chunk.text)] as [string, Buffer]])),
    };
    const site = await listen((req, res) => {
      const file = files[req.url ?? ''];
      res.writeHead(file ? 200 : 404, { 'Content-Type': file?.[0] ?? 'text/plain' });
      res.end(file?.[1] ?? 'not found');
    });
    const browser = await launchBrowser();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${site.url}/`);
    // Run in the page, where globalThis is its window.
    await page.waitForFunction(() => 'answers' in globalThis, undefined, { timeout: 20_000 });
    const answers = (await page.evaluate(() => (globalThis as unknown as { answers: unknown }).answers)) as Record<string, unknown>;
    expect(errors).toEqual([]);
    expect(answers.error).toBeUndefined();
    const reference = createClient({ token: 'demo', dataPath: artifact });
    expect(answers.info).toEqual(reference.infoCp('09810', { type: 'simplified' }));
    expect(answers.full).toEqual(reference.infoCp('09810'));
    expect(answers.search).toEqual(reference.searchCp('0981'));
    expect(answers.handled).toEqual({ status: 200, etag: expect.stringMatching(/^".+"$/), body: reference.searchCp('0981') });
    expect(answers.openapi).toEqual({ status: 200, body: openApiDocument({ version: VERSION }) });
  }, BROWSER_INSTALL_TIMEOUT);
});

describe('the browser helper', () => {
  it('keeps web security on, whichever Chromium it launched: a cross-origin read without CORS is refused, one with CORS is not', async () => {
    const page = await (await launchBrowser()).newPage();
    const site = await listen((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>site</title>');
    });
    const other = await listen((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain', ...(req.url === '/shared' ? { 'Access-Control-Allow-Origin': '*' } : {}) });
      res.end('secret');
    });
    await page.goto(`${site.url}/`);
    const read = (url: string) => page.evaluate((target) => fetch(target).then((response) => response.text(), (error: Error) => `refused: ${error.name}`), url);
    expect(await read(`${other.url}/private`)).toBe('refused: TypeError');
    expect(await read(`${other.url}/shared`)).toBe('secret');
  }, BROWSER_INSTALL_TIMEOUT);

  it('fails, naming what to do, when the browser it is pointed at is missing', () => {
    const saved = process.env.CPMX_CHROMIUM;
    process.env.CPMX_CHROMIUM = join(root, 'no-such-chromium');
    try {
      expect(() => systemChromium()).toThrow(/no Chromium found at CPMX_CHROMIUM=.*no-such-chromium: set it to a Chrome or Chromium binary, or unset it/);
    } finally {
      if (saved === undefined) delete process.env.CPMX_CHROMIUM;
      else process.env.CPMX_CHROMIUM = saved;
    }
  });
});
