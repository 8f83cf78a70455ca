/** Shared test set-up: fixture paths, temporary directories, and building artifacts the real way. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import { buildArtifact } from '../build/build.js';
import { loadCatalog } from '../src/client/catalog-source.js';
import type { Catalog } from '../src/core/catalog.js';
import { createClient, ERRORS, isSuccess, type Body, type CpmxClient, type ErrorCode, type ErrorEnvelope } from '../src/index.js';

export const root = resolve(import.meta.dirname, '..');
export const FIXTURE = join(root, 'test', 'fixtures', 'catalog-mini.txt');
export const CLI = join(root, 'dist', 'cli.cjs');

/** The real catalog beside the repository. Its absence fails the test run, never skips it. */
export function realCatalogPath(): string {
  const path = process.env.CPMX_CATALOG ?? resolve(root, '..', 'shared', 'data', 'sepomex', 'CPdescargatxt.zip');
  if (!existsSync(path)) {
    throw new Error(`the real catalog is missing at ${path}: real-data tests need ../shared/data/sepomex/CPdescargatxt.zip (or CPMX_CATALOG)`);
  }
  return path;
}

/** A temporary directory removed after the file's tests. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cpmx-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The build time recorded by buildInto, fixed so that builds of the same input are
 * byte-identical; the CLI gets the same from SOURCE_DATE_EPOCH (BUILD_EPOCH).
 */
export const BUILD_TIME = new Date('2026-01-01T00:00:00Z');
export const BUILD_EPOCH = String(BUILD_TIME.getTime() / 1000);

/** Builds `source` into `dir/name` and returns the artifact's path. */
export async function buildInto(source: string, dir: string, name = 'cpmx.msgpack'): Promise<string> {
  const out = join(dir, name);
  await buildArtifact({ source, out, builtAt: BUILD_TIME });
  return out;
}

/** The real catalog (`realCatalogPath`) built into `dir`: the artifact's path, the catalog read from it, and a client on it with `token`. */
export async function buildRealCatalog(dir: string, token: string): Promise<{ artifact: string; catalog: Catalog; client: CpmxClient }> {
  const artifact = await buildInto(realCatalogPath(), dir);
  return { artifact, catalog: loadCatalog(artifact), client: createClient({ token, dataPath: artifact }) };
}

/**
 * The fixture catalog built into a temporary folder (removed after the file's tests), and a
 * client on it that answers with the token `demo`: what the contract's tests each start from.
 */
export async function fixtureClient(): Promise<{ dir: string; dataPath: string; client: CpmxClient }> {
  const dir = tempDir();
  const dataPath = await buildInto(FIXTURE, dir);
  return { dir, dataPath, client: createClient({ token: 'demo', dataPath }) };
}

/** The error envelope the contract answers for `code`, written from the error table. */
export function errorOf(code: ErrorCode) {
  return { error: true, code_error: code, error_message: ERRORS[code][0], response: null };
}

/** The body narrowed to a success; a failure (with the error it got) when it is an error envelope. */
export function ok<B extends Body>(body: B): Exclude<B, ErrorEnvelope> {
  if (!isSuccess(body)) throw new Error(`expected a success, got ${JSON.stringify(body)}`);
  return body;
}
