/**
 * A real browser for the tests and the benchmark, driven by playwright-core: CPMX_CHROMIUM when set, else a Chromium
 * or Chrome on the PATH, else the Chromium that npm has, so that `npm test` needs nothing but
 * Node and npm. That one is @sparticuz/chromium (a headless-shell build for AWS Lambda, with
 * the few libraries it needs that a bare Linux may lack), a devDependency that `npm install`
 * and `npm ci` fetch with the rest (pinned in package-lock.json; about 65 MB, brotli files and
 * no install script), unpacked on first need into node_modules/.cache/ (about 200 MB, once).
 *
 * Its own launcher is not used, for two reasons. Its default arguments turn web security off
 * (`--disable-web-security`, site isolation off, a single process), under which a CORS test
 * would pass for the wrong reason: here it runs with the same arguments as any Chromium, a
 * normal multi-process browser with normal security (test/embed/browser.test.ts checks that a
 * cross-origin read is refused). And it unpacks itself into /tmp, shared by every process and
 * user, where parallel first launches read half-written files: here it is unpacked once into a
 * folder of its own under the checkout's cache, by one process holding a lock, and renamed into
 * place whole, so every other test file either waits for it or finds it complete.
 *
 * A test that needs a browser fails, never skips, when none can be had (test/support/browser.ts
 * launches it for test files; bench/browser.ts for the benchmark).
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { packageRoot } from '../src/package-root.js';
import { processAlive } from '../src/process-alive.js';
import { cacheFolder } from './npm-cache.js';

/**
 * The npm Chromium, a devDependency (package.json pins it): 147 is the newest whose `engines`
 * takes Node 20 (148 and later want 22.17).
 */
export const NPM_CHROMIUM = { name: '@sparticuz/chromium' };
/** For a test or hook that launches the first browser: the npm Chromium's first unpacking (200 MB, or waiting for another process's) may come first. */
export const BROWSER_INSTALL_TIMEOUT = 600_000;
const run = promisify(execFile);

/** Where npm installed the npm Chromium, and its version; an error saying what to do when it is missing. */
function npmPackage(): { folder: string; version: string } {
  const folder = join(packageRoot, 'node_modules', ...NPM_CHROMIUM.name.split('/'));
  try {
    return { folder, version: (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string }).version };
  } catch {
    throw new Error(`no Chromium: ${NPM_CHROMIUM.name} is not installed in ${folder} (run \`npm install\`: it is a devDependency), and none is on the PATH or in CPMX_CHROMIUM`);
  }
}

/** The browsers looked for on the PATH, in order. */
const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A browser installed on this machine: CPMX_CHROMIUM (which must exist: a name given and
 * missing is an error, not a reason to use another), else the first of SYSTEM_NAMES on the PATH.
 */
export function systemChromium(): string | undefined {
  const given = process.env.CPMX_CHROMIUM;
  if (given) {
    if (executable(given)) return given;
    throw new Error(`no Chromium found at CPMX_CHROMIUM=${given}: set it to a Chrome or Chromium binary, or unset it to use one on the PATH or else the one npm installs (${NPM_CHROMIUM.name})`);
  }
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of SYSTEM_NAMES) {
    for (const dir of dirs) if (executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** How to start a browser: its binary and what its environment adds. */
export interface BrowserBinary {
  executablePath: string;
  env: Record<string, string>;
  /** `system` (CPMX_CHROMIUM or the PATH) or `npm`. */
  from: 'system' | 'npm';
}

/** What the npm Chromium's folder holds once complete (the last file written before the rename). */
const COMPLETE = 'complete.json';

/**
 * Its fonts.conf names Lambda's folders; this one names the fonts unpacked in `cache`, by its
 * real path: a checkout whose node_modules is a link to another's (a git worktree's) unpacks
 * there, and a path through the link would die with the checkout.
 */
function fontsConfig(cache: string): string {
  const real = realpathSync(cache);
  return `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(real, 'fonts', 'fonts')}</dir>\n  <cachedir>${join(real, 'fonts', 'cache')}</cachedir>\n</fontconfig>\n`;
}

function npmBinary(cache: string): BrowserBinary {
  // A folder unpacked before the config named real paths may name one gone since: said again.
  const config = join(cache, 'fonts', 'fonts.conf');
  const wanted = fontsConfig(cache);
  if (readFileSync(config, 'utf8') !== wanted) {
    writeFileSync(`${config}.${process.pid}`, wanted);
    renameSync(`${config}.${process.pid}`, config);
  }
  return {
    executablePath: join(cache, 'chromium'),
    env: {
      // Its own NSS and expat, built for the same glibc era; a bare Debian or Ubuntu may have none.
      LD_LIBRARY_PATH: [join(cache, 'al2023', 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(delimiter),
      FONTCONFIG_FILE: join(cache, 'fonts', 'fonts.conf'),
    },
    from: 'npm',
  };
}

/** Unpacks `file.br` (a brotli stream, or a tar of one when `tarInto` is given). */
async function unbrotli(file: string, to: string, tarInto?: string): Promise<void> {
  await pipeline(createReadStream(file), createBrotliDecompress(), createWriteStream(to, { mode: 0o755 }));
  if (tarInto === undefined) return;
  mkdirSync(tarInto, { recursive: true });
  await run('tar', ['-xf', to, '-C', tarInto]);
  rmSync(to);
}

/** Unpacks the npm Chromium into a folder of this process's, and renames it into place (`cache`) whole. */
async function unpackNpmChromium(npm: { folder: string; version: string }, cache: string): Promise<void> {
  const work = `${cache}.part-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const bin = join(npm.folder, 'bin');
    await unbrotli(join(bin, 'chromium.br'), join(work, 'chromium'));
    // SwiftShader's libraries sit beside the binary, where Chromium looks for them.
    await unbrotli(join(bin, 'swiftshader.tar.br'), join(work, 'swiftshader.tar'), work);
    await unbrotli(join(bin, 'al2023.tar.br'), join(work, 'al2023.tar'), join(work, 'al2023'));
    await unbrotli(join(bin, 'fonts.tar.br'), join(work, 'fonts.tar'), join(work, 'fonts'));
    // Written by npmBinary() once the folder is in place, as it names its real path.
    writeFileSync(join(work, 'fonts', 'fonts.conf'), '');
    writeFileSync(join(work, COMPLETE), `${JSON.stringify({ name: NPM_CHROMIUM.name, version: npm.version })}\n`);
    renameSync(work, cache);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw new Error(`could not unpack ${NPM_CHROMIUM.name}@${npm.version} from ${npm.folder} for the browser tests and the benchmark (brotli, then tar): ${(error as Error).message}`);
  }
}

/** False once the lock's holder has died (or never wrote its pid, a minute ago). */
function holderAlive(lock: string): boolean {
  try {
    return processAlive(Number(readFileSync(join(lock, 'pid'), 'utf8')));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs < 60_000;
    } catch {
      return true; // gone already: try again
    }
  }
}

/**
 * The npm Chromium, unpacked by one process at a time: the one that makes the lock folder
 * unpacks; the others wait for the folder to be complete, or take over a lock whose holder died.
 */
async function npmChromium(): Promise<BrowserBinary> {
  const npm = npmPackage();
  const cache = cacheFolder(join('cpmx-chromium', npm.version));
  const lock = `${cache}.lock`;
  const deadline = Date.now() + BROWSER_INSTALL_TIMEOUT;
  mkdirSync(join(cache, '..'), { recursive: true });
  while (!existsSync(join(cache, COMPLETE))) {
    try {
      mkdirSync(lock);
    } catch {
      if (!holderAlive(lock)) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for another test process to unpack ${NPM_CHROMIUM.name} into ${cache} (lock ${lock})`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      // A folder left by a process that died before its rename has no COMPLETE file.
      if (!existsSync(join(cache, COMPLETE))) {
        rmSync(cache, { recursive: true, force: true });
        await unpackNpmChromium(npm, cache);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return npmBinary(cache);
}

/** The browser to launch: one installed on this machine, else the npm Chromium. */
export async function browserBinary(): Promise<BrowserBinary> {
  const system = systemChromium();
  return system ? { executablePath: system, env: {}, from: 'system' } : npmChromium();
}

/**
 * The Chromium package-lock.json pins (CPMX_CHROMIUM when set): the same build on every machine,
 * so a benchmark's browser timings compare across machines and runs, whatever browser the
 * machine has (a distribution's Chromium differs in version and build from one to the next).
 */
export async function pinnedBrowserBinary(): Promise<BrowserBinary> {
  return process.env.CPMX_CHROMIUM ? browserBinary() : npmChromium();
}

/**
 * Launches headless Chromium (the caller closes it): the same arguments for the tests and the
 * benchmark; the binary is `browserBinary()`'s unless one is given.
 */
export async function launchChromium(binary?: BrowserBinary): Promise<Browser> {
  binary ??= await browserBinary();
  return chromium.launch({
    executablePath: binary.executablePath,
    env: { ...process.env, ...binary.env },
    headless: true,
    args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
