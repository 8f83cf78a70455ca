/**
 * cpmx/web: the time `cpmx export web` takes over the whole catalog; the bytes one code and
 * one form cost from a cold cache, counted as a plain static server sends them (gzipped) to
 * fresh clients; the module's size; and the first answer of a cold page in Chromium over
 * loopback, side by side with the library's browser build, which fetches the whole artifact.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import type { CpmxClient } from '../../src/client/client.js';
import type { WebClient } from '../../src/web/client.js';
import type { WebResults } from '../results.js';
import { staticServer } from '../static-server.js';
import { median, spread } from '../stats.js';
import { random } from '../workload.js';

export interface WebBenchOptions {
  root: string;
  artifact: string;
  work: string;
  /** The compiled library and cpmx/web, as a user imports them. */
  node: CpmxClient;
  createWebClient: (options: { base: string; token: string }) => WebClient;
  /** Chromium, or undefined to leave the browser part out. */
  launch: (() => Promise<Browser>) | undefined;
  seed: number;
  codes: number;
  pageRuns: number;
  log: (line: string) => void;
}

/**
 * The cold page whose first answer is timed, here and in test/web-browser.test.ts: the README's
 * hints (the module and the manifest preloaded, so they travel together), then one code.
 */
export const WEB_PAGE = `<!doctype html><meta charset="utf-8">
<link rel="modulepreload" href="/lib/web.js">
<link rel="preload" href="/tree/manifest.json" as="fetch" crossorigin>
<script type="module">
import { createWebClient } from '/lib/web.js';
const body = await createWebClient({ base: '/tree/', token: 'demo' }).infoCp('09810');
globalThis.answered = [performance.now(), body.length];
</script>`;

const LIBRARY_PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
import { createClient } from '/lib/cpmx.web.js';
const data = new Uint8Array(await (await fetch('/data/cpmx.msgpack')).arrayBuffer());
const body = createClient({ data, token: 'demo' }).infoCp('09810');
globalThis.answered = [performance.now(), body.length];
</script>`;

export async function measureWeb(options: WebBenchOptions): Promise<WebResults> {
  const { root, artifact, work, node, log } = options;
  const tree = join(work, 'web-tree');
  const cli = join(root, 'dist', 'cli.js');

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
  const server = staticServer({ '/tree/': tree, '/lib/': join(root, 'dist'), '/data/': join(artifact, '..'), '/': pages });
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
    if (options.launch) {
      log(`web: first answer of a cold page in Chromium, ${options.pageRuns} runs of each page, interleaved ...`);
      const browser = await options.launch();
      try {
        const timings = { web: [] as number[], library: [] as number[] };
        for (let run = 0; run < options.pageRuns; run++) {
          for (const name of ['web', 'library'] as const) {
            // A new context is a new profile: nothing cached.
            const context = await browser.newContext();
            const page = await context.newPage();
            await page.goto(`${site}/${name}.html`);
            const [ms, length] = (await (await page.waitForFunction(() => (globalThis as { answered?: unknown }).answered, undefined, { timeout: 30_000 })).jsonValue()) as [number, number];
            if (!(length > 0)) throw new Error(`the ${name} page answered nothing`);
            timings[name].push(ms);
            await context.close();
          }
        }
        firstAnswer = { webMs: spread(timings.web), libraryMs: spread(timings.library), ratio: median(timings.library) / median(timings.web) };
      } finally {
        await browser.close();
      }
    }

    const gz = (file: string) => gzipSync(readFileSync(join(root, 'dist', file)), { level: 9 }).length;
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
