/**
 * cpmx/web and a tree whose manifest (or a hashed parent) is malformed or hostile (issue 37,
 * item 6): right format and version but `digits` null, missing, not an object, or hashes that
 * are paths, addresses or escapes. Each is refused with WebTreeError('damaged'), and no request
 * ever leaves `base`: a hash is checked as eight hex digits before any URL is built from it.
 * Served over real HTTP on 127.0.0.1 by a server that records every request.
 */
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { staticServer } from '../../bench/static-server.js';
import { crc32 } from '../../src/core/crc32.js';
import { FIXTURE, buildInto, root, tempDir } from '../helpers.js';
import { listen } from '../support/http.js';
import { exportWeb } from '../support/web.js';

const dir = tempDir();
const miniTree = join(dir, 'mini-tree');
/** Every path asked of the server. */
const asked: string[] = [];
let site: string;
let web: typeof import('../../src/web/index.js');

beforeAll(async () => {
  const artifact = await buildInto(FIXTURE, dir, 'mini.msgpack');
  expect(exportWeb(artifact, miniTree).status).toBe(0);
  const files = staticServer({ '/sites/': dir });
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    files.emit('request', req, res);
  });
  site = (await listen(server)).url;
  web = await import(join(root, 'dist', 'web.js'));
});

/** A copy of the mini tree with its manifest changed by `change`, served under /sites/NAME/. */
function variant(name: string, change: (manifest: Record<string, unknown>, copy: string) => void): string {
  const copy = join(dir, name);
  cpSync(miniTree, copy, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8'));
  change(manifest, copy);
  writeFileSync(join(copy, 'manifest.json'), JSON.stringify(manifest));
  return `${site}/sites/${name}/`;
}

/** Asks for a code, the states and a search; each must fail as damaged, with no request outside `/sites/NAME/`. */
async function expectDamaged(name: string, base: string): Promise<void> {
  asked.length = 0;
  const client = web.createWebClient({ base, token: 'demo', retries: 0 });
  for (const call of [() => client.infoCp('09810'), () => client.getEstados(), () => client.searchCp('1')]) {
    await expect(call(), name).rejects.toMatchObject({ name: 'WebTreeError', problem: 'damaged' });
  }
  expect(asked.length, name).toBeGreaterThan(0);
  for (const path of asked) expect(path, name).toMatch(new RegExp(`^/sites/${name}/(manifest\\.json|[a-z][0-9a-z-]*\\.([0-9a-f]{8}\\.)?json)(\\?fresh=\\d+)?$`));
}

describe('cpmx/web refuses a malformed manifest as damaged', () => {
  const cases: [string, (manifest: Record<string, unknown>) => void][] = [
    ['digits-null', (m) => (m.digits = null)],
    ['digits-missing', (m) => delete m.digits],
    ['digits-string', (m) => (m.digits = '0123456789')],
    ['digits-array', (m) => (m.digits = ['00000000'])],
    ['digits-object-value', (m) => (m.digits = { ...(m.digits as object), 0: { hash: 'x' } })],
    ['estados-missing', (m) => delete m.estados],
    ['estados-number', (m) => (m.estados = 12345678)],
  ];
  for (const [name, change] of cases) {
    it(name, async () => expectDamaged(name, variant(name, change)));
  }
});

describe('a hash never makes cpmx/web fetch outside base', () => {
  const hostile = ['../../secret', '../mini-tree/e', '/etc/passwd', '%2e%2e/%2e%2e/secret', '..%2f..%2fsecret', 'http://127.0.0.1:1/x', '//evil.example/x', '0badf00d/../../x', '0BADF00D', '0badf00'];
  for (const [at, hash] of hostile.entries()) {
    it(`estados and digits "${hash}"`, async () => {
      await expectDamaged(`estados-${at}`, variant(`estados-${at}`, (m) => (m.estados = hash)));
      await expectDamaged(`digit-${at}`, variant(`digit-${at}`, (m) => (m.digits = { ...(m.digits as object), 0: hash, 1: hash })));
    });
  }

  it('in a hashed parent whose bytes match its hash: a digit’s index naming a shard by a path', async () => {
    const base = variant('shard-path', (manifest, copy) => {
      const digits = manifest.digits as Record<string, string>;
      const index = JSON.parse(readFileSync(join(copy, `d0.${digits['0']}.json`), 'utf8'));
      index.shards['098'] = '../../../secret';
      const bytes = Buffer.from(JSON.stringify(index));
      const hash = crc32(bytes).toString(16).padStart(8, '0');
      writeFileSync(join(copy, `d0.${hash}.json`), bytes);
      digits['0'] = hash;
    });
    asked.length = 0;
    const client = web.createWebClient({ base, token: 'demo', retries: 0 });
    await expect(client.infoCp('09810')).rejects.toMatchObject({ problem: 'damaged', message: expect.stringMatching(/no hash named for c098/) });
    expect(asked.every((path) => path.startsWith('/sites/shard-path/') && !path.includes('..'))).toBe(true);
    expect(readdirSync(join(dir, 'shard-path')).length).toBeGreaterThan(0);
  });
});
