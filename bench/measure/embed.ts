/**
 * cpmx where it is embedded: the cold start of the bytes path (the app reads the artifact and
 * gives its bytes) next to the file path, in fresh processes interleaved; and the size a web
 * page pays for the library, bundled for browsers by esbuild and minified, raw and gzipped.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { EmbedResults } from '../results.js';
import { coldRun, coldStat, type ColdSample } from './cold-starts.js';

export interface BrowserBundle {
  text: string;
  /** The files esbuild read, as its metafile names them (`node:…` for a Node module). */
  inputs: string[];
  bytes: number;
  gzipBytes: number;
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
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const output = result.outputFiles[0]!;
  return { text: output.text, inputs: Object.keys(result.metafile.inputs), bytes: output.contents.length, gzipBytes: gzipSync(output.contents).length };
}

/** The library's browser build, as an app's bundler makes it: every export kept. */
async function browserBundle(root: string): Promise<EmbedResults['browserBundle']> {
  const { inputs, bytes, gzipBytes } = await bundleForBrowser({ source: "export * from 'cpmx';", resolveDir: root });
  if (!inputs.some((input) => input.endsWith('dist/cpmx.web.js')) || inputs.some((input) => input.startsWith('node:'))) {
    throw new Error(`the browser bundle is not the web build alone: ${inputs.join(', ')}`);
  }
  return { bytes, gzipBytes };
}

export async function measureEmbedding(options: { root: string; compiled: string; work: string; runs: number; code: string }): Promise<EmbedResults> {
  const samples = { file: [] as ColdSample[], bytes: [] as ColdSample[] };
  for (let run = 0; run < options.runs; run++) {
    samples.file.push(coldRun(options, 'cpmx'));
    samples.bytes.push(coldRun(options, 'cpmx-bytes'));
  }
  return { cold: { file: coldStat(samples.file), bytes: coldStat(samples.bytes) }, browserBundle: await browserBundle(options.root) };
}
