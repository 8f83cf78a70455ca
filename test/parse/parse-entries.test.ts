/**
 * `parseAddress` and `validateAddress` through every entry the package ships, with a client
 * from every entry: each bundle (dist/cpmx.js, .cjs, dist/validate.js, .cjs) carries its own
 * copy of the client module, so a check by identity (a WeakMap, instanceof) across them fails;
 * the client's catalog is found by a `Symbol.for` key instead (issue 33). Run in child
 * processes on the built bundles, as a consumer loads them.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildInto, FIXTURE, root, tempDir } from '../helpers.js';

const dir = tempDir();
let data: string;

beforeAll(async () => {
  data = await buildInto(FIXTURE, dir);
});

const LINE = 'Calle Tuxpan No. 63, Col. Minerva, Iztapalapa, C.P. 09810';
const entries = { esm: { client: 'cpmx.js', validate: 'validate.js' }, cjs: { client: 'cpmx.cjs', validate: 'validate.cjs' } } as const;

/** What a consumer gets: the line parsed and a record validated, with a client from `clientEntry`. */
function run(clientFrom: keyof typeof entries, validateFrom: keyof typeof entries): { parsed: Record<string, unknown>; validated: Record<string, unknown> } {
  const load = (kind: keyof typeof entries, file: string) => (kind === 'esm' ? `await import(${JSON.stringify(join(root, 'dist', file))})` : `require(${JSON.stringify(join(root, 'dist', file))})`);
  const script = `const { createRequire } = await import('node:module');
const require = createRequire(${JSON.stringify(join(root, 'package.json'))});
const { createClient } = ${load(clientFrom, entries[clientFrom].client)};
const { parseAddress, validateAddress } = ${load(validateFrom, entries[validateFrom].validate)};
const client = createClient({ token: 'entries', dataPath: ${JSON.stringify(data)} });
console.log(JSON.stringify({ parsed: parseAddress(client, ${JSON.stringify(LINE)}), validated: validateAddress(client, { cp: '', colonia: 'Minerva', municipio: 'Iztapalapa', estado: 'CDMX' }) }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('parseAddress and validateAddress through every built entry', () => {
  for (const clientFrom of ['esm', 'cjs'] as const) {
    for (const validateFrom of ['esm', 'cjs'] as const) {
      it(`take a client from the ${clientFrom} entry in the ${validateFrom} cpmx/validate`, () => {
        const { parsed, validated } = run(clientFrom, validateFrom);
        expect(parsed).toMatchObject({ cp: '09810', asentamiento: 'Minerva', municipio: 'Iztapalapa', calle: 'Calle Tuxpan', numero_exterior: '63', valid: true });
        // A code found from the names: the validator reaches the catalog by the same door.
        expect(validated).toMatchObject({ valid: false, suggestions: { cp: '09810' } });
      });
    }
  }

  it('refuse, with a TypeError that says so, what is not a client', () => {
    const script = `const { parseAddress } = await import(${JSON.stringify(join(root, 'dist', 'validate.js'))});
try { parseAddress({ infoCp() {} }, 'Col. Centro 09810'); console.log('no error'); } catch (error) { console.log(error.name + ': ' + error.message); }`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim()).toBe('TypeError: catalogOf: not a client made by createClient');
  });
});
