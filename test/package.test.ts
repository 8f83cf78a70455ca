/**
 * The packed package, installed in a fresh project elsewhere: plain `node` imports it, its
 * types check, its bin answers, and the artifact inside it is used.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { root, tempDir } from './helpers.js';

const dir = tempDir();
const project = join(dir, 'consumer');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(() => {
  const artifact = join(root, 'data', 'cpmx.msgpack');
  if (!existsSync(artifact)) throw new Error(`${artifact} is missing: npm install (or npm ci) builds it from the catalog`);
  // Scripts are skipped so packing does not recompile dist/ under the feet of other test files.
  const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], root)) as { filename: string; files: { path: string }[] }[];
  const files = packed[0]!.files.map((file) => file.path);
  expect(files).toContain('data/cpmx.msgpack');
  expect(files).toContain('dist/src/index.d.ts');
  expect(files).toContain('dist/validate.js');
  expect(files.some((file) => file.startsWith('test/') || file.startsWith('src/'))).toBe(false);
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }));
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, packed[0]!.filename)], project);
}, 180_000);

describe('the installed package', () => {
  it('is imported by plain node and answers from its own artifact', () => {
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "import { createClient } from 'cpmx'; const c = createClient({ token: 'demo' }); console.log(JSON.stringify([c.dataPath, c.infoCp('09810', { type: 'simplified' })]))"],
      { cwd: project, encoding: 'utf8', env: { ...process.env, CPMX_DATA: '' } },
    );
    const [dataPath, body] = JSON.parse(out);
    expect(dataPath).toBe(join(project, 'node_modules', 'cpmx', 'data', 'cpmx.msgpack'));
    expect(body.response.municipio).toBe('Iztapalapa');
  });

  it('exports the client, the handlers, the contract and its errors, and nothing internal', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', "console.log(JSON.stringify(Object.keys(await import('cpmx')).sort()))"], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual(['ArtifactError', 'ERRORS', 'TEST_TOKEN', 'createClient', 'createFetchHandler', 'createMiddleware', 'isSuccess']);
  });

  it('serves address validation from cpmx/validate', () => {
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "import { createClient } from 'cpmx'; import { validateAddress } from 'cpmx/validate'; console.log(JSON.stringify(validateAddress(createClient({ token: 'demo' }), { cp: '1000' })))"],
      { cwd: project, encoding: 'utf8', env: { ...process.env, CPMX_DATA: '' } },
    );
    expect(JSON.parse(out)).toMatchObject({ valid: false, suggestions: { cp: '01000' } });
  });

  it('runs its bin', () => {
    const out = execFileSync(join(project, 'node_modules', '.bin', 'cpmx'), ['search_cp', '0981', '--token', 'demo'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, CPMX_DATA: '' },
    });
    expect(JSON.parse(out).response.cp).toEqual(['09810', '09819']);
  });

  it('ships types that a strict TypeScript consumer compiles against', () => {
    writeFileSync(
      join(project, 'use.ts'),
      `import { createClient, isSuccess, ArtifactError, ERRORS, type InfoCpBody, type CpmxClient, type PostalCodeRecord } from 'cpmx';
const client: CpmxClient = createClient({ token: 'demo' });
const body: InfoCpBody = client.infoCp('09810', { type: 'simplified' });
const { status } = client.query('/query/get_estados?token=demo');
export const result: [InfoCpBody, number] = [body, status];
// The simplified body is one envelope: its response is there to read.
const names: string[] | undefined = client.infoCp('09810', { type: 'simplified' }).response?.asentamiento;
// The full body narrows to an array of envelopes once it is known to be a success.
const full = client.infoCp('09810');
const records: PostalCodeRecord[] = [];
if (isSuccess(full)) for (const envelope of full) records.push(envelope.response);
else full.code_error satisfies keyof typeof ERRORS;
// @ts-expect-error an error envelope is not iterable: the body must be narrowed first
for (const envelope of client.infoCp('09810')) records.push(envelope);
// @ts-expect-error the type is 'simplified' or nothing
client.infoCp('09810', { type: 'simplfied' });
const states = client.getEstados();
const first: string | undefined = isSuccess(states) ? states.response.estado[0] : undefined;
export const more = [names, records, first, new ArtifactError('x', 'y').path];
`,
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', join(root, 'node_modules', '@types'), 'use.ts'];
    expect(() => execFileSync(process.execPath, [tsc, ...args], { cwd: project, encoding: 'utf8' })).not.toThrow();
    writeFileSync(join(project, 'wrong.ts'), `import { createClient } from 'cpmx';\nconst n: number = createClient({ token: 'x' }).getEstados();\n`);
    expect(() => execFileSync(process.execPath, [tsc, ...args.slice(0, -1), 'wrong.ts'], { cwd: project, encoding: 'utf8' })).toThrow();
  });
});
