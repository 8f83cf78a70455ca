/**
 * The library bundles keep what only `GET /openapi.json` needs (the OpenAPI builder, the method
 * table's texts and schemas) in a file of their own, loaded at the document's first request
 * (scripts/bundle.mjs): the ES module, CommonJS and web builds each serve the document the
 * sources make, and none of them holds its texts, so importing cpmx and answering compiles none.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { METHOD_TEXTS } from '../../src/core/method-texts.js';
import { openApiDocument } from '../../src/http/openapi.js';
import { VERSION } from '../../src/version.js';
import { FIXTURE, buildInto, root, tempDir } from '../helpers.js';

const dir = tempDir();
let dataPath: string;
const expected = JSON.stringify(openApiDocument({ version: VERSION }));

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
});

/** A script that asks a bundle's fetch handler for the document and an answer, and prints both. */
const ask = (load: string) => `
const cpmx = ${load};
const handler = cpmx.createFetchHandler({ dataPath: ${JSON.stringify(dataPath)} });
Promise.all(['/openapi.json', '/query/info_cp/09810?token=demo'].map((target) => Promise.resolve(handler(new Request('http://cpmx.test' + target))).then(async (r) => [r.status, await r.text()])))
  .then((answers) => process.stdout.write(JSON.stringify(answers)));`;

describe('the OpenAPI document in the library bundles', () => {
  it('is served by the ES module and CommonJS bundles from their own file, the same as the sources make', () => {
    const esm = execFileSync(process.execPath, ['--input-type=module', '-e', ask(`await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'cpmx.js')).href)})`)], { encoding: 'utf8' });
    const cjs = execFileSync(process.execPath, ['-e', ask(`require(${JSON.stringify(join(root, 'dist', 'cpmx.cjs'))})`)], { encoding: 'utf8' });
    for (const out of [esm, cjs]) {
      const [[status, document], [answerStatus]] = JSON.parse(out) as [[number, string], [number, string]];
      expect(status).toBe(200);
      expect(document).toBe(expected);
      expect(answerStatus).toBe(200);
    }
  });

  it('is served by the web build from its own file', async () => {
    const web = (await import(join(root, 'dist', 'cpmx.web.js'))) as typeof import('../../src/index.js');
    const response = await web.createFetchHandler()(new Request('http://cpmx.test/openapi.json'));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(expected);
  });

  it('has its texts in that file only, not in the bundles a lookup loads', () => {
    const summaries = Object.values(METHOD_TEXTS).map((texts) => texts.summary);
    for (const bundle of ['cpmx.js', 'cpmx.cjs', 'cpmx.web.js']) {
      const text = readFileSync(join(root, 'dist', bundle), 'utf8');
      expect(summaries.filter((summary) => text.includes(summary)), bundle).toEqual([]);
      expect(text, bundle).not.toContain('jsonSchemaDialect');
    }
    for (const file of ['cpmx-openapi.js', 'cpmx-openapi.cjs']) {
      const text = readFileSync(join(root, 'dist', file), 'utf8');
      expect(summaries.every((summary) => text.includes(summary)), file).toBe(true);
      expect(text, file).not.toMatch(/["']node:|\brequire\(/);
    }
  });
});
