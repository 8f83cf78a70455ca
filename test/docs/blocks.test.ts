/**
 * Every code block README.md and docs/ tell a user to run does run. A fenced `sh` block runs
 * with bash (`-e -o pipefail`), a `js` block with node, a `ts` block with node and tsx, each
 * from a copy of the repository root of this built checkout (links to its files, so new files
 * land in a temporary folder), with the real catalog, `cpmx` and `npx cpmx` meaning
 * `node dist/cli.cjs`, and no CPMX_* setting of the developer's. A block marked
 * `<!-- not run: REASON -->` right before its fence is skipped for that reason; a marker
 * without a reason, or with no fence after it, fails.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, root } from '../helpers.js';
import { type CodeBlock, codeBlocksOf, documentationPages, readPage, strayMarkers } from './markdown.js';

const RUNNABLE = new Set(['sh', 'ts', 'js']);
/** Long enough for a loaded shared machine; a block is meant to take a few seconds. */
const BLOCK_TIMEOUT_MS = 60_000;
/** Blocks run in folders of their own, so they are independent: two at a time. */
const AT_ONCE = 2;

const pages = documentationPages();
const blocks = pages.flatMap((page) => codeBlocksOf(page, readPage(page)));

const scratch = mkdtempSync(join(tmpdir(), 'cpmx-doc-blocks-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `cpmx` and `npx cpmx` as the checkout's own command line; any other npx as it is. */
function shims(): string {
  const bin = join(scratch, 'bin');
  mkdirSync(bin);
  const cpmx = `"${process.execPath}" "${CLI}"`;
  const realNpx = (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'npx'))
    .find((path) => existsSync(path));
  writeFileSync(join(bin, 'cpmx'), `#!/bin/sh\nexec ${cpmx} "$@"\n`);
  writeFileSync(join(bin, 'npx'), `#!/bin/sh\nif [ "$1" = cpmx ]; then shift; exec ${cpmx} "$@"; fi\nexec "${realNpx ?? 'npx'}" "$@"\n`);
  chmodSync(join(bin, 'cpmx'), 0o755);
  chmodSync(join(bin, 'npx'), 0o755);
  return bin;
}
const bin = shims();

/** A folder that reads as the repository root: a link to each of its entries. */
function repositoryCopy(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  for (const entry of readdirSync(root)) if (entry !== '.git') symlinkSync(join(root, entry), join(dir, entry));
  return dir;
}

const environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CPMX_') && name !== 'NODE_OPTIONS'));

let running = 0;
const waiting: (() => void)[] = [];
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

interface Outcome {
  status: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

function runBlock(block: CodeBlock, index: number): Promise<Outcome> {
  const dir = repositoryCopy(`block-${index}`);
  const file = join(dir, `doc-block.${block.language === 'sh' ? 'sh' : block.language === 'ts' ? 'ts' : 'mjs'}`);
  writeFileSync(file, `${block.code}\n`);
  const [command, args] = block.language === 'sh' ? ['bash', ['-e', '-o', 'pipefail', file]] : block.language === 'ts' ? [process.execPath, ['--import', 'tsx', file]] : [process.execPath, [file]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args as string[], { cwd: dir, env: { ...environment, PATH: `${bin}${delimiter}${environment.PATH ?? ''}` }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), BLOCK_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, output });
    });
  });
}

describe('the markers of blocks that do not run', () => {
  it('each gives its reason', () => {
    expect(blocks.filter((block) => block.notRun === '').map((block) => `${block.page}:${block.line - 1}`)).toEqual([]);
  });

  it('each stands right before a fence', () => {
    expect(pages.flatMap((page) => strayMarkers(readPage(page)).map((line) => `${page}:${line}`))).toEqual([]);
  });

  it('are read as the convention says', () => {
    const read = codeBlocksOf('x.md', ['<!-- not run: starts a server -->', '```sh', 'cpmx serve', '```', '<!-- not run: -->', '```js', 'x', '```', '```ts', 'y', '```'].join('\n'));
    expect(read.map(({ language, notRun, code }) => ({ language, notRun, code }))).toEqual([
      { language: 'sh', notRun: 'starts a server', code: 'cpmx serve' },
      { language: 'js', notRun: '', code: 'x' },
      { language: 'ts', notRun: undefined, code: 'y' },
    ]);
  });
});

describe('the code blocks of the documentation', () => {
  const runnable = blocks.filter((block) => RUNNABLE.has(block.language) && block.notRun === undefined);

  it('has blocks to run on the front page', () => {
    expect(runnable.filter((block) => block.page === 'README.md').map((block) => block.language)).toEqual(expect.arrayContaining(['sh', 'js']));
  });

  runnable.forEach((block, index) => {
    it.concurrent(
      `${block.page}:${block.line} (${block.language}) runs`,
      async () => {
        const { status, signal, output } = await inTurn(() => runBlock(block, index));
        expect({ status, signal, output: status === 0 ? '' : output.slice(-3000) }, `${block.page}:${block.line}\n${block.code}`).toEqual({ status: 0, signal: null, output: '' });
      },
      BLOCK_TIMEOUT_MS * (blocks.length + 1),
    );
  });
});
