/**
 * cpmx/web: the time `cpmx export web` takes over the whole catalog; the bytes one code and
 * one form cost from a cold cache, counted as a plain static server sends them (gzipped) to
 * fresh clients; the module's size; and the first answer of a cold page in Chromium over
 * loopback, side by side with the library's browser build, which fetches the whole artifact, and
 * with an empty page (Chromium's own floor); the web page's time split by its resource timings.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import type { BenchBrowser } from '../browser.js';
import type { CpmxClient } from '../../src/client/client.js';
import type { WebClient } from '../../src/web/client.js';
import type { WebResults } from '../results.js';
import { staticServer } from '../static-server.js';
import { staticServerThread } from '../static-thread.js';
import { median, spread } from '../stats.js';
import { random } from '../workload.js';

export interface WebBenchOptions {
  root: string;
  artifact: string;
  work: string;
  /** The compiled library and cpmx/web, as a user imports them. */
  node: CpmxClient;
  createWebClient: (options: { base: string; token: string }) => WebClient;
  /** The Chromiums to time the cold pages in, the reported one first (bench/browser.ts); none leaves the browser part out. */
  browsers: BenchBrowser[];
  seed: number;
  codes: number;
  pageRuns: number;
  log: (line: string) => void;
}

/**
 * What a timed page logs once it has answered: `ANSWERED [ms, length]`. The driver waits for
 * that console line rather than polling the page (`waitForFunction`), because polling makes
 * Playwright evaluate its injected script (about 330 KB) in the page: where the load event
 * comes before the answer, as on the web page, that ran on the page's main thread in the middle
 * of the measurement (14 ms of one trace, the answer's last file waiting behind it). A console
 * line costs the page nothing the driver does.
 */
export const ANSWERED = 'cpmx-answered ';
const answeredLine = `globalThis.answered = [performance.now(), body.length];
console.log(${JSON.stringify(ANSWERED)} + JSON.stringify(globalThis.answered));`;

/**
 * The cold page whose first answer is timed, here and in test/web/web-browser.test.ts: the README's
 * hints (the module and the manifest preloaded, so they travel together), then one code.
 */
export const WEB_PAGE = `<!doctype html><meta charset="utf-8">
<link rel="modulepreload" href="/lib/web.js">
<link rel="preload" href="/tree/manifest.json" as="fetch" crossorigin>
<script type="module">
import { createWebClient } from '/lib/web.js';
const body = await createWebClient({ base: '/tree/', token: 'demo' }).infoCp('09810');
${answeredLine}
</script>`;

/**
 * The floor under both pages: a cold page whose one module script answers at once, with nothing
 * to fetch. What it takes is Chromium's own (a new profile, a renderer, the HTML, a module):
 * no client can answer sooner, so a page's time minus this is what its fetching and code cost.
 */
const FLOOR_PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
const body = 'x';
${answeredLine}
</script>`;

const LIBRARY_PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
import { createClient } from '/lib/cpmx.web.js';
const data = new Uint8Array(await (await fetch('/data/cpmx.msgpack')).arrayBuffer());
const body = createClient({ data, token: 'demo' }).infoCp('09810');
${answeredLine}
</script>`;

/** Opens `url` in `page` and waits for its ANSWERED line (the page's errors fail it; 30 s at most): its [ms from navigation start, body length]. */
export async function timeAnswer(page: Page, url: string): Promise<[number, number]> {
  let timer: NodeJS.Timeout | undefined;
  const answered = new Promise<[number, number]>((resolve, reject) => {
    page.on('console', (message) => {
      const text = message.text();
      if (text.startsWith(ANSWERED)) resolve(JSON.parse(text.slice(ANSWERED.length)) as [number, number]);
    });
    page.on('pageerror', reject);
    timer = setTimeout(() => reject(new Error(`${url} did not answer within 30 s`)), 30_000);
  });
  try {
    // Only up to the commit: the driver then waits, doing nothing in the page.
    await page.goto(url, { waitUntil: 'commit' });
    return await answered;
  } finally {
    clearTimeout(timer);
  }
}

/** A page's timings as Chromium recorded them (ms from navigation start): the HTML's, and each fetched file's. */
interface PageTimings {
  html: number;
  files: { path: string; start: number; end: number }[];
}

/** Evaluated in the page (a string: no DOM types here): its navigation and resource entries (PerformanceResourceTiming). */
const PAGE_TIMINGS = `({
  html: performance.getEntriesByType('navigation')[0].responseEnd,
  files: performance.getEntriesByType('resource').map((e) => ({ path: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd })),
})`;

/** What a page is sent of a module of dist/ (`web.js`, `web-form.js`), gzipped as a static server set to its best compresses it. */
export function moduleGzipBytes(root: string, file: string): number {
  return gzipSync(readFileSync(join(root, 'dist', file)), { level: 9 }).length;
}

/**
 * Where the web page's first answer spent its time, each a moment from navigation start: the
 * HTML arrived; the module and the manifest (fetched together, preloaded) arrived; the client
 * asked for the tree files the code needs (the module has run: this is when its code first
 * fetched); those files arrived; the answer was made.
 */
export interface WebPagePhases {
  html: number;
  module: number;
  asked: number;
  files: number;
  answered: number;
}

export function webPagePhases(timings: PageTimings, answered: number): WebPagePhases {
  const module = timings.files.filter((f) => f.path === '/lib/web.js' || f.path === '/tree/manifest.json');
  const tree = timings.files.filter((f) => f.path.startsWith('/tree/') && f.path !== '/tree/manifest.json');
  if (module.length !== 2 || tree.length === 0) throw new Error(`the web page fetched ${timings.files.map((f) => f.path).join(', ')}: not the module, the manifest and the code's files`);
  return {
    html: timings.html,
    module: Math.max(...module.map((f) => f.end)),
    asked: Math.min(...tree.map((f) => f.start)),
    files: Math.max(...tree.map((f) => f.end)),
    answered,
  };
}

export async function measureWeb(options: WebBenchOptions): Promise<WebResults> {
  const { root, artifact, work, node, log } = options;
  const tree = join(work, 'web-tree');
  const cli = join(root, 'dist', 'cli.cjs');

  log('web: cpmx export web, 3 runs in child processes ...');
  const exportSeconds: number[] = [];
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [cli, 'export', 'web', tree, '--data', artifact], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`cpmx export web failed: ${result.stderr}`);
    exportSeconds.push((performance.now() - started) / 1000);
  }

  const pages = join(work, 'web-pages');
  rmSync(pages, { recursive: true, force: true });
  mkdirSync(pages);
  writeFileSync(join(pages, 'web.html'), WEB_PAGE);
  writeFileSync(join(pages, 'library.html'), LIBRARY_PAGE);
  writeFileSync(join(pages, 'floor.html'), FLOOR_PAGE);
  // The Node clients' server, which counts what it sends; the browser's pages come from their own (below).
  const server = staticServer({ '/tree/': tree });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    /** What the server sent (gzipped bodies) while `run` ran. */
    const sentDuring = async (run: () => Promise<unknown>) => {
      const before = server.sent.bytes;
      await run();
      return server.sent.bytes - before;
    };
    const fresh = () => options.createWebClient({ base: `${site}/tree/`, token: 'demo' });

    log(`web: ${options.codes} random codes and every municipality's form, each with a fresh client ...`);
    const all = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((d) => (node.searchCp(String(d)) as { response?: { cp: string[] } }).response?.cp ?? []);
    const next = random(options.seed);
    const codeBytes: number[] = [];
    for (let i = 0; i < options.codes; i++) {
      const cp = all[Math.floor(next() * all.length)]!;
      codeBytes.push(await sentDuring(() => fresh().infoCp(cp)));
    }
    const formBytes: number[] = [];
    for (const estado of (node.getEstados() as { response: { estado: string[] } }).response.estado) {
      for (const municipio of (node.getMunicipioPorEstado(estado) as { response: { municipios: string[] } }).response.municipios) {
        formBytes.push(
          await sentDuring(async () => {
            const client = fresh();
            await client.getEstados();
            await client.getMunicipioPorEstado(estado);
            await client.getColoniaPorEstadoMunicipio(estado, municipio);
          }),
        );
      }
    }

    let firstAnswer: WebResults['firstAnswer'] = null;
    if (options.browsers.length > 0) {
      // The pages come from a server in a thread of its own, as from any host (see static-thread.ts).
      const host = await staticServerThread({ '/tree/': tree, '/lib/': join(root, 'dist'), '/data/': join(artifact, '..'), '/': pages });
      try {
        const timed: FirstAnswerRuns[] = [];
        for (const { source, launch } of options.browsers) {
          log(`web: first answer of a cold page in Chromium (${source}), ${options.pageRuns} runs of each page, interleaved ...`);
          timed.push(await timePages(await launch(), source, host.url, options.pageRuns));
        }
        const [main, ...others] = timed;
        firstAnswer = {
          ...summary(main!),
          libraryMs: spread(main!.library),
          ratio: median(main!.library) / median(main!.web),
          phasesMs: { html: phase(main!, 'html'), module: phase(main!, 'module'), asked: phase(main!, 'asked'), files: phase(main!, 'files'), answered: phase(main!, 'answered') },
          otherBrowsers: others.map(summary),
        };
      } finally {
        await host.close();
      }
    }

    const gz = (file: string) => moduleGzipBytes(root, file);
    return {
      exportSeconds: spread(exportSeconds),
      codeBytes: { mean: codeBytes.reduce((a, b) => a + b, 0) / codeBytes.length, ...spread(codeBytes) },
      formBytes: spread(formBytes),
      moduleGzipBytes: gz('web.js'),
      formModuleGzipBytes: gz('web-form.js'),
      artifactGzipBytes: gzipSync(readFileSync(artifact)).length,
      firstAnswer,
    };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** One browser's cold pages: each page's first-answer times, and the web page's phases. */
interface FirstAnswerRuns {
  browser: { source: string; version: string };
  web: number[];
  library: number[];
  floor: number[];
  phases: WebPagePhases[];
}

/** `runs` cold pages of each kind in `browser` (closed after), interleaved; a new context is a new profile: nothing cached. */
async function timePages(browser: Browser, source: string, site: string, runs: number): Promise<FirstAnswerRuns> {
  const timed: FirstAnswerRuns = { browser: { source, version: browser.version() }, web: [], library: [], floor: [], phases: [] };
  try {
    for (let run = 0; run < runs; run++) {
      for (const name of ['web', 'library', 'floor'] as const) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const [ms, length] = await timeAnswer(page, `${site}/${name}.html`);
        if (!(length > 0)) throw new Error(`the ${name} page answered nothing`);
        timed[name].push(ms);
        if (name === 'web') timed.phases.push(webPagePhases((await page.evaluate(PAGE_TIMINGS)) as PageTimings, ms));
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return timed;
}

const summary = (timed: FirstAnswerRuns) => ({ browser: timed.browser, webMs: spread(timed.web), floorMs: spread(timed.floor) });
const phase = (timed: FirstAnswerRuns, key: keyof WebPagePhases) => median(timed.phases.map((p) => p[key]));
