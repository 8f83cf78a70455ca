/**
 * The packed package, installed in a fresh project elsewhere: plain `node` imports it, its
 * types check, its bin answers, and the artifact inside it is used.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { root, tempDir } from '../helpers.js';
import { packAndInstall } from '../support/packed.js';

const dir = tempDir();
let project: string;
let files: string[];
let installOutput: string;

beforeAll(() => {
  ({ project, files, installOutput } = packAndInstall(dir));
}, 180_000);

describe('the tarball', () => {
  it('holds exactly the bundles, their types, the artifact and the papers', () => {
    // The command line's chunks are named by content hash; their number may change.
    const shapes = new Set(files.filter((file) => !file.startsWith('dist/src/')).map((file) => file.replace(/^dist\/cli-(?!program\.js$)[\w-]+\.js$/, 'dist/cli-*.js')));
    expect([...shapes].sort()).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'data/cpmx.msgpack',
      'dist/cli-*.js',
      'dist/cli-lookup.cjs',
      'dist/cli-program.js',
      'dist/cli.cjs',
      'dist/cpmx-deferred.cjs',
      'dist/cpmx-geo.cjs',
      'dist/cpmx-http.cjs',
      'dist/cpmx-http.js',
      'dist/cpmx-http.web.js',
      'dist/cpmx-openapi.cjs',
      'dist/cpmx-openapi.js',
      'dist/cpmx.bundlers.js',
      'dist/cpmx.cjs',
      'dist/cpmx.cjs.cache',
      'dist/cpmx.d.cts',
      'dist/cpmx.js',
      'dist/cpmx.web.js',
      'dist/registry-thread.js',
      'dist/validate.cjs',
      'dist/validate.d.cts',
      'dist/validate.js',
      'dist/web-extra.js',
      'dist/web-form.js',
      'dist/web.js',
      'package.json',
    ]);
    const types = files.filter((file) => file.startsWith('dist/src/'));
    expect(types.every((file) => file.endsWith('.d.ts'))).toBe(true);
    expect(types).toEqual(expect.arrayContaining(['dist/src/index.d.ts', 'dist/src/http/fetch.d.ts', 'dist/src/http/lazy-handlers.d.ts', 'dist/src/validate/index.d.ts', 'dist/src/web/index.d.ts', 'dist/src/web/form-entry.d.ts']));
    // Every bundle a chunk imports is in the tarball.
    const shipped = new Set(files);
    for (const file of files.filter((f) => /^dist\/cli.*\.c?js$/.test(f))) {
      for (const [, chunk] of readFileSync(join(project, 'node_modules', 'cpmx', file), 'utf8').matchAll(/(?:from\s*|require\(|import\()"\.\/(cli-[\w-]+\.c?js)"/g)) expect(shipped).toContain(`dist/${chunk}`);
    }
  });

  it('keeps the code’s licence and the data’s terms apart', () => {
    const license = readFileSync(join(project, 'node_modules', 'cpmx', 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License/);
    expect(license).toContain('Correos de México');
    expect(license).toContain('no estando permitida');
  });
});

describe('installing the tarball', () => {
  it('prints no warning of cpmx’s making, and brings no package only one command or development needs', () => {
    // npm's warnings about this machine's own configuration are printed by any npm command.
    const ambient = new Set(spawnSync('npm', ['config', 'get', 'registry'], { cwd: project, encoding: 'utf8' }).stderr.split('\n'));
    expect(installOutput.split('\n').filter((line) => /\bwarn/i.test(line) && !ambient.has(line))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'cpmx', 'package.json'), 'utf8'));
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    // Each optional peer is what one command needs: MCP's SDK, a registry's driver, the KML reader of build --geo.
    expect(manifest.peerDependenciesMeta).toEqual({
      '@modelcontextprotocol/sdk': { optional: true },
      '@tmcw/togeojson': { optional: true },
      '@xmldom/xmldom': { optional: true },
      'better-sqlite3': { optional: true },
      pg: { optional: true },
    });
    for (const absent of ['pg', 'better-sqlite3', 'fflate', 'msgpackr', 'msgpackr-extract', '@modelcontextprotocol/sdk', 'zod', '@tmcw/togeojson', '@xmldom/xmldom']) expect(existsSync(join(project, 'node_modules', absent)), absent).toBe(false);
  });

  it('says to `npm install pg` when a PostgreSQL registry is asked for without it', () => {
    const bin = join(project, 'node_modules', '.bin', 'cpmx');
    const url = 'postgres://cpmx:secret@127.0.0.1:9/cpmx';
    for (const args of [['serve', '--port', '0', '--registry', url], ['tokens', 'list', '--registry', url]]) {
      const run = spawnSync(bin, args, { cwd: project, encoding: 'utf8', timeout: 30_000 });
      expect(run.status, `cpmx ${args[0]}: ${run.stderr}`).not.toBe(0);
      expect(run.stderr).toContain('run `npm install pg` beside cpmx');
      expect(run.stderr).not.toContain('secret');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('cpmx mcp and the MCP SDK, its optional peer', () => {
  it('says to `npm install @modelcontextprotocol/sdk` when the SDK is not installed, and still helps', () => {
    const bin = join(project, 'node_modules', '.bin', 'cpmx');
    const run = spawnSync(bin, ['mcp'], { cwd: project, encoding: 'utf8', input: '', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('run `npm install @modelcontextprotocol/sdk` beside cpmx');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const help = spawnSync(bin, ['mcp', '--help'], { cwd: project, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('"mcpServers"');
  });

  it('serves its tools to the SDK’s client once the lowest SDK its peer range accepts is installed beside it', async () => {
    // A project of its own (cpmx from the same tarball, and the SDK), as a user adds it. The
    // checkout develops with a newer SDK (test/mcp/mcp.test.ts, the Node versions): this is the oldest.
    const tarball = readdirSync(dir).find((file) => file.endsWith('.tgz'))!;
    const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).peerDependencies['@modelcontextprotocol/sdk'] as string;
    const sdk = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
    expect(sdk, `the peer range ${range} is read as ^X.Y.Z here`).toBeDefined();
    const agent = join(dir, 'agent');
    mkdirSync(agent);
    writeFileSync(join(agent, 'package.json'), JSON.stringify({ name: 'agent', version: '1.0.0', type: 'module', private: true }));
    const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball), `@modelcontextprotocol/sdk@${sdk}`], { cwd: agent, encoding: 'utf8' });
    expect(installed.status, installed.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(agent, 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json'), 'utf8')).version).toBe(sdk);
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: join(agent, 'node_modules', '.bin', 'cpmx'), args: ['mcp'], cwd: agent, env: { ...process.env, CPMX_DATA: '' } as Record<string, string> }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('info_cp');
      const answer = (await client.callTool({ name: 'info_cp', arguments: { cp: '09810', type: 'simplified' } })) as { content: { text: string }[] };
      expect(JSON.parse(answer.content[0]!.text).response.municipio).toBe('Iztapalapa');
    } finally {
      await client.close();
    }
    // With this SDK too, a message over the 4 MiB bound is answered under its id and the session goes on (issue 37, item 8).
    const call = (id: number, partial: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_cp', arguments: { partial } } });
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const huge = call(2, 'x'.repeat(12 * 1024 * 1024));
    const run = spawnSync(join(agent, 'node_modules', '.bin', 'cpmx'), ['mcp'], { cwd: agent, input: `${initialize}\n${huge}\n${call(3, '0981')}\n`, encoding: 'utf8', env: { ...process.env, CPMX_DATA: '' }, maxBuffer: 64 * 1024 * 1024 });
    expect(run.status).toBe(0);
    const answers = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(answers.map((one) => one.id)).toEqual([1, 2, 3]);
    expect(answers[1].error.code).toBe(-32600);
    expect(answers[2].result.content[0].text).toContain('09810');
    expect(run.stderr).toContain('cpmx mcp: a message of');
  }, 180_000);
});

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
    expect(JSON.parse(out)).toEqual(['ArtifactError', 'ERRORS', 'GeodataError', 'TEST_TOKEN', 'createClient', 'createFetchHandler', 'createMiddleware', 'isSuccess']);
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
      `import { createClient, isSuccess, ArtifactError, ERRORS, type InfoCpBody, type CpmxClient, type CpListBody, type PostalCodeRecord } from 'cpmx';
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
// Each version-2 method is typed by its own body.
const codes: string[] | undefined = client.getCpPorMunicipio('Benito Juárez', { estado: 'cdmx' }).response?.cp;
const keys: Record<string, string> | undefined = client.getMunicipioClavePorClaveEstado(9).response?.municipio_clave;
const left: number | null | undefined = client.consultasDisponibles().response?.consultas_disponibles;
const advanced: CpListBody = client.searchCpAdvanced('cdmx', { colonia: 'centro', limit: 10 });
// @ts-expect-error searchCpAdvanced takes municipio, colonia and limit, nothing else
client.searchCpAdvanced('cdmx', { estado: 'x' });
// @ts-expect-error a list of settlements is not a list of codes
const wrong: string[] | undefined = client.getColoniaPorCp('09810').response?.cp;
export const more = [names, records, first, new ArtifactError('x', 'y').path, codes, keys, left, advanced, wrong];
`,
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--skipDefaultLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', join(root, 'node_modules', '@types'), 'use.ts'];
    expect(() => execFileSync(process.execPath, [tsc, ...args], { cwd: project, encoding: 'utf8' })).not.toThrow();
    writeFileSync(join(project, 'wrong.ts'), `import { createClient } from 'cpmx';\nconst n: number = createClient({ token: 'x' }).getEstados();\n`);
    expect(() => execFileSync(process.execPath, [tsc, ...args.slice(0, -1), 'wrong.ts'], { cwd: project, encoding: 'utf8' })).toThrow();
    // A CommonJS consumer under module node16 reads the .d.cts that require() resolves to.
    writeFileSync(
      join(project, 'use.cts'),
      `import { createClient, createMiddleware, type InfoCpBody } from 'cpmx';\nimport { validateAddress } from 'cpmx/validate';\nconst client = createClient({ token: 'demo' });\nexport const body: InfoCpBody = client.infoCp('09810');\nexport const both = [createMiddleware({ prefix: '/cpmx' }), validateAddress(client, { cp: '09810' }).valid];\n`,
    );
    writeFileSync(join(project, 'wrong.cts'), `import { createClient } from 'cpmx';\nexport const n: number = createClient({ token: 'x' }).getEstados();\n`);
    const commonJs = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'node16', '--moduleResolution', 'node16', '--types', 'node', '--typeRoots', join(root, 'node_modules', '@types')];
    expect(() => execFileSync(process.execPath, [tsc, ...commonJs, 'use.cts'], { cwd: project, encoding: 'utf8' })).not.toThrow();
    const wrong = spawnSync(process.execPath, [tsc, ...commonJs, 'wrong.cts'], { cwd: project, encoding: 'utf8' });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toMatch(/wrong\.cts\(2,14\): error TS2322: Type 'EstadosBody' is not assignable to type 'number'/);
  }, 240_000);
  it('is required by CommonJS, main entry and cpmx/validate, answering from the same artifact', () => {
    writeFileSync(
      join(project, 'use.cjs'),
      `const { createClient, createMiddleware } = require('cpmx');
const { validateAddress } = require('cpmx/validate');
const client = createClient({ token: 'demo' });
console.log(JSON.stringify([client.dataPath, client.searchCp('0981'), validateAddress(client, { cp: '1000' }).suggestions, typeof createMiddleware]));
`,
    );
    const [dataPath, search, suggestions, middleware] = JSON.parse(execFileSync(process.execPath, ['use.cjs'], { cwd: project, encoding: 'utf8', env: { ...process.env, CPMX_DATA: '' } }));
    expect(dataPath).toBe(join(project, 'node_modules', 'cpmx', 'data', 'cpmx.msgpack'));
    expect(search.response.cp).toEqual(['09810', '09819']);
    expect(suggestions).toEqual({ cp: '01000' });
    expect(middleware).toBe('function');
  });

  it('resolves cpmx/data/cpmx.msgpack to its artifact, for bundlers’ binary loaders', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', "console.log(import.meta.resolve('cpmx/data/cpmx.msgpack'))"], { cwd: project, encoding: 'utf8' });
    expect(out.trim()).toBe(`file://${join(project, 'node_modules', 'cpmx', 'data', 'cpmx.msgpack')}`);
  });

  it('says where to download the catalog and what to run when its artifact is missing', () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', "import { createClient } from 'cpmx'; createClient({ token: 'demo' })"], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, CPMX_DATA: join(project, 'nowhere.msgpack') },
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`ArtifactError: ${join(project, 'nowhere.msgpack')}: no artifact here; run \`cpmx build\``);
    expect(run.stderr).toContain('https://www.correosdemexico.gob.mx/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx');
    expect(run.stderr).toContain('npx cpmx build --source CPdescargatxt.zip');
  });

  it('installed without data (as from git), says at first use the one command that gets it', () => {
    const bare = join(dir, 'bare');
    cpSync(join(project, 'node_modules', 'cpmx'), join(bare, 'node_modules', 'cpmx'), { recursive: true, filter: (from) => !from.endsWith('.msgpack') });
    writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'bare', version: '1.0.0', type: 'module', private: true }));
    const env = { ...process.env, CPMX_DATA: '' };
    const library = spawnSync(process.execPath, ['--input-type=module', '-e', "import { createClient } from 'cpmx'; createClient()"], { cwd: bare, encoding: 'utf8', env });
    const cli = spawnSync(process.execPath, [join(bare, 'node_modules', 'cpmx', 'dist', 'cli.cjs'), 'info_cp', '09810', '--token', 'demo'], { cwd: bare, encoding: 'utf8', env });
    for (const run of [library, cli]) {
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('cpmx was installed without data');
      expect(run.stderr).toContain('run `npx cpmx build --download`');
    }
    // Test mode needs no data.
    const test = spawnSync(process.execPath, [join(bare, 'node_modules', 'cpmx', 'dist', 'cli.cjs'), 'get_estados', '--token', 'pruebas'], { cwd: bare, encoding: 'utf8', env });
    expect(test.status, test.stderr).toBe(0);
  });

  it('builds only from a catalog it is given, never one outside itself, and says to keep the artifact outside node_modules', () => {
    const bin = join(project, 'node_modules', '.bin', 'cpmx');
    // A catalog where the repository's checkout keeps one, relative to the installed package.
    const beside = join(project, 'node_modules', 'shared', 'data', 'sepomex');
    mkdirSync(beside, { recursive: true });
    writeFileSync(join(beside, 'CPdescargatxt.zip'), 'not to be read');
    const env = { ...process.env, CPMX_CATALOG: '' };
    const run = spawnSync(bin, ['build'], { cwd: project, encoding: 'utf8', env });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('https://www.correosdemexico.gob.mx/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx');
    expect(run.stderr).toContain('npx cpmx build --source CPdescargatxt.zip --out data/cpmx.msgpack');
    expect(run.stderr).toContain('CPMX_DATA=data/cpmx.msgpack');
    expect(run.stderr).not.toContain('shared');
    expect(run.stderr).not.toMatch(/put it at/);
    const built = spawnSync(bin, ['build', '--source', join(root, 'test', 'fixtures', 'catalog-mini.txt'), '--out', 'data/cpmx.msgpack'], { cwd: project, encoding: 'utf8', env });
    expect(built.status, built.stderr).toBe(0);
    const answer = spawnSync(bin, ['search_cp', '0', '--token', 'demo'], { cwd: project, encoding: 'utf8', env: { ...process.env, CPMX_DATA: 'data/cpmx.msgpack' } });
    expect(JSON.parse(answer.stdout).response.cp).toEqual(['01000', '01010', '03100', '09810', '09819']);
  });
});
