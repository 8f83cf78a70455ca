/**
 * cpmx where it is embedded: the cold start of the bytes path (the app reads the artifact and
 * gives its bytes) next to the file path, in fresh processes interleaved; and the size a web
 * page pays for the library, bundled for browsers by esbuild and minified, raw and gzipped.
 * The bundle is split as app bundlers split it (webpack, Vite and Rollup always, esbuild with
 * `splitting`): what a dynamic `import()` loads is a chunk of its own, fetched when that code
 * first runs. The page pays the entry; the chunks are reported beside it.
 */
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { EmbedResults } from '../results.js';
import { coldRun, coldStat, type ColdSample } from './cold-starts.js';

export interface BrowserBundle {
  /** The entry chunk: what the page loads. */
  text: string;
  /** The files esbuild read, as its metafile names them (`node:…` for a Node module). */
  inputs: string[];
  /** The entry chunk's size, raw and gzipped. */
  bytes: number;
  gzipBytes: number;
  /** The chunks the entry loads by dynamic import only, by file name (`./name` from the entry), with the files each holds. */
  lazy: Record<string, { text: string; inputs: string[]; bytes: number; gzipBytes: number }>;
}

/**
 * What an app's bundler makes for a browser, minified: `entry` (a file, or module source
 * resolved from `resolveDir`), with bare imports also looked up in `nodePaths`.
 */
export async function bundleForBrowser(entry: { file: string } | { source: string; resolveDir: string }, nodePaths: string[] = []): Promise<BrowserBundle> {
  const result = await build({
    ...('file' in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.source, resolveDir: entry.resolveDir } }),
    nodePaths,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    splitting: true,
    outdir: 'out',
    chunkNames: '[name]-[hash]',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const outputs = Object.entries(result.metafile.outputs);
  // The entry is the chunk made for `entry` (a dynamically imported file is an entry point of its
  // own too, and esbuild writes its chunk even where the code importing it was dropped).
  const entryPoint = 'file' in entry ? resolve(entry.file) : '<stdin>';
  const entries = outputs.filter(([, output]) => output.entryPoint !== undefined && (output.entryPoint === '<stdin>' ? output.entryPoint : resolve(output.entryPoint)) === entryPoint);
  if (entries.length !== 1) throw new Error(`expected one entry chunk, got ${entries.map(([file]) => file).join(', ')}`);
  const [entryFile, entryOutput] = entries[0]!;
  // Every other chunk must be one the entry reaches by dynamic import only: a static one is paid by the page too.
  if (entryOutput.imports.some((imported) => !imported.external && imported.kind !== 'dynamic-import')) {
    throw new Error(`the entry imports chunks statically: ${entryOutput.imports.map((imported) => imported.path).join(', ')}`);
  }
  const file = (path: string) => result.outputFiles.find((output) => output.path.endsWith(`/${path}`))!;
  const sized = (path: string) => {
    const output = file(path);
    return { text: output.text, bytes: output.contents.length, gzipBytes: gzipSync(output.contents).length };
  };
  // The chunks the page may load: those the entry reaches by dynamic import, and theirs.
  const lazy: BrowserBundle['lazy'] = {};
  const reached = [entryFile];
  for (let i = 0; i < reached.length; i++) {
    for (const imported of result.metafile.outputs[reached[i]!]!.imports) {
      if (imported.external || reached.includes(imported.path)) continue;
      reached.push(imported.path);
      lazy[imported.path.replace(/^out\//, '')] = { ...sized(imported.path), inputs: Object.keys(result.metafile.outputs[imported.path]!.inputs) };
    }
  }
  return { ...sized(entryFile), inputs: Object.keys(result.metafile.inputs), lazy };
}

/**
 * The library's browser build, as an app's bundler makes it: every export kept. The page pays
 * the entry; what it may leave to chunks fetched later is only what no lookup needs: the
 * OpenAPI document's file (fetched at `GET /openapi.json`) and the HTTP handlers' request side,
 * cpmx-http.web.js (the responder and the fetch and node:http adapters, fetched at a handler's
 * first request, whose answer is a promise anyway). test/embed/browser-size.test.ts holds the
 * entry to the bench's target with this same measurement.
 */
export async function browserBundle(root: string): Promise<EmbedResults['browserBundle']> {
  const { inputs, bytes, gzipBytes, lazy } = await bundleForBrowser({ source: "export * from 'cpmx';", resolveDir: root });
  if (!inputs.some((input) => input.endsWith('dist/cpmx.web.js')) || inputs.some((input) => input.startsWith('node:'))) {
    throw new Error(`the browser bundle is not the web build alone: ${inputs.join(', ')}`);
  }
  const lazyInputs = Object.values(lazy).flatMap((chunk) => chunk.inputs);
  if (lazyInputs.some((input) => !/dist\/cpmx-(openapi|http\.web)\.js$/.test(input))) {
    throw new Error(`a lazy chunk holds more than the OpenAPI document's file and the handlers' request side: ${lazyInputs.join(', ')}`);
  }
  const lazyBytes = Object.values(lazy).reduce((sum, chunk) => sum + chunk.bytes, 0);
  const lazyGzipBytes = Object.values(lazy).reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
  return { bytes, gzipBytes, lazyBytes, lazyGzipBytes };
}

export async function measureEmbedding(options: { root: string; compiled: string; work: string; runs: number; code: string }): Promise<EmbedResults> {
  const samples = { file: [] as ColdSample[], bytes: [] as ColdSample[] };
  for (let run = 0; run < options.runs; run++) {
    samples.file.push(coldRun(options, 'cpmx'));
    samples.bytes.push(coldRun(options, 'cpmx-bytes'));
  }
  return { cold: { file: coldStat(samples.file), bytes: coldStat(samples.bytes) }, browserBundle: await browserBundle(options.root) };
}
