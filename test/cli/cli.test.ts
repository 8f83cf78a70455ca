/**
 * The `cpmx` command, run as a user runs it: the compiled bin in a child process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, ERRORS } from '../../src/index.js';
import { BUILD_EPOCH, CLI, FIXTURE, buildInto, root, tempDir } from '../helpers.js';
import { FORMAT_VERSION } from '../../src/core/format.js';

const dir = tempDir();
let dataPath: string;

function cpmx(args: string[], options: { env?: Record<string, string | undefined>; input?: string; cwd?: string; bin?: string } = {}) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run compile" first (npm test does)`);
  const env: Record<string, string | undefined> = { ...process.env, CPMX_DATA: dataPath, CPMX_TOKEN: undefined, ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const result = spawnSync(process.execPath, [options.bin ?? CLI, ...args], { env, input: options.input ?? '', encoding: 'utf8', cwd: options.cwd });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
});

describe('lookups', () => {
  it('prints the API body compactly when piped, exit 0 on success', () => {
    const run = cpmx(['info_cp', '09810', '--type', 'simplified', '--token', 'demo']);
    expect(run.status).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(run.stdout)).toEqual(createClient({ token: 'demo', dataPath }).infoCp('09810', { type: 'simplified' }));
    expect(JSON.parse(cpmx(['search_cp', '098', '--token', 'demo']).stdout).response.cp).toEqual(['09810', '09819']);
    expect(JSON.parse(cpmx(['get_estados', '--token', 'demo']).stdout).response.estado).toHaveLength(6);
    expect(JSON.parse(cpmx(['get_municipio_por_estado', 'Estado de México', '--token', 'demo']).stdout).response.municipios).toEqual(['Acolman', 'Toluca']);
  });

  it('exits 1 with the error envelope, including a negative code', () => {
    for (const [args, code] of [
      [['info_cp', '99999'], 105],
      [['info_cp', '-1234'], 104],
      [['info_cp', '0981'], 102],
      [['info_cp', ''], 101],
      [['info_cp', '09810', '--type', 'full'], 112],
      [['search_cp', '1234567'], 102],
      [['get_municipio_por_estado', 'Texas'], 110],
      [['get_municipio_por_estado', ''], 109],
    ] as [string[], keyof typeof ERRORS][]) {
      const run = cpmx([...args, '--token', 'demo']);
      expect(run.status, args.join(' ')).toBe(1);
      expect(JSON.parse(run.stdout), args.join(' ')).toEqual({ error: true, code_error: code, error_message: ERRORS[code][0], response: null });
    }
  });

  it('takes the token from --token, else CPMX_TOKEN; none answers from the local catalog, as createClient() does', () => {
    const local = cpmx(['get_estados']);
    expect(local.status).toBe(0);
    expect(JSON.parse(local.stdout)).toEqual(createClient({ dataPath }).getEstados());
    expect(JSON.parse(cpmx(['info_cp', '09810']).stdout)).toEqual(createClient({ dataPath }).infoCp('09810'));
    expect(JSON.parse(cpmx(['get_estados'], { env: { CPMX_TOKEN: '' } }).stdout).response.estado).toHaveLength(6);
    // A request path still answers as over HTTP: no token, 106.
    expect(JSON.parse(cpmx(['query', '/query/get_estados']).stdout).code_error).toBe(106);
    expect(JSON.parse(cpmx(['get_estados'], { env: { CPMX_TOKEN: 'pruebas' } }).stdout).response.estado[0]).toMatch(/prueba/);
    expect(JSON.parse(cpmx(['get_estados', '--token', 'demo'], { env: { CPMX_TOKEN: 'pruebas' } }).stdout).response.estado[0]).toBe('Coahuila de Zaragoza');
  });

  it('exits 2 with the usage when an argument is missing, before any token question', () => {
    for (const [args, usage] of [
      [['info_cp'], 'Usage: cpmx info_cp <cp> [--type simplified]'],
      [['info_cp', '--token', 'pruebas'], 'Usage: cpmx info_cp <cp> [--type simplified]'],
      [['get_municipio_por_estado'], 'Usage: cpmx get_municipio_por_estado <estado>'],
    ] as [string[], string][]) {
      const run = cpmx(args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderr, args.join(' ')).toContain(`needs <`);
      expect(run.stderr, args.join(' ')).toContain(usage);
    }
  });

  it('exits 2 on usage errors, saying what was wrong', () => {
    const unknown = cpmx(['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
    const option = cpmx(['info_cp', '09810', '--tpye', 'simplified']);
    expect(option.status).toBe(2);
    expect(option.stderr).toMatch(/--tpye/);
    const two = cpmx(['info_cp', '09810', '09819', '--token', 'x']);
    expect(two.status).toBe(2);
    expect(two.stderr).toMatch(/takes one <cp>/);
    expect(cpmx([]).status).toBe(0);
  });

  it('exits 2 naming the artifact when it cannot be loaded; test mode still works', () => {
    const missing = join(dir, 'absent.msgpack');
    const run = cpmx(['info_cp', '09810', '--token', 'demo', '--data', missing]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${missing}: no artifact here; run \`cpmx build\``);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const test = cpmx(['info_cp', '09810', '--token', 'pruebas', '--data', missing]);
    expect(test.status).toBe(0);
    expect(JSON.parse(test.stdout)[0].response.cp).toBe('09810');
  });

  it('has --help on every command', () => {
    for (const command of ['info_cp', 'search_cp', 'get_estados', 'get_municipio_por_estado', 'query', 'build', 'status']) {
      const run = cpmx([command, '--help']);
      expect(run.status, command).toBe(0);
      expect(run.stdout, command).toContain(`Usage: cpmx ${command}`);
    }
    const main = cpmx(['--help']);
    expect(main.stdout).toMatch(/cpmx info_cp <cp>/);
    expect(cpmx(['help', 'build']).stdout).toContain('Usage: cpmx build');
  });
});

describe('query', () => {
  it('answers one path with its exit status', () => {
    const run = cpmx(['query', '/query/info_cp/09810?token=demo']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(createClient({ token: 'demo', dataPath }).infoCp('09810'));
    expect(cpmx(['query', '/query/nothing?token=demo']).status).toBe(1);
  });

  it('streams stdin: one compact body a line, in order, bad lines answered, CRLF and a last line without newline', () => {
    const client = createClient({ dataPath });
    const paths = [
      '/query/info_cp/09810?token=demo',
      'garbage',
      '',
      '/query/search_cp/5?token=demo',
      '/query/info_cp/0981?token=demo',
      '/query/get_municipio_por_estado/cdmx?token=demo',
      '/query/get_estados',
      '/query/info_cp/55810?token=demo&type=simplified',
    ];
    const run = cpmx(['query'], { input: `${paths.slice(0, -1).join('\r\n')}\n${paths.at(-1)}` });
    expect(run.status).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(paths.length);
    expect(lines.map((line) => JSON.parse(line))).toEqual(paths.map((path) => client.query(path).body));
    const withDefault = cpmx(['query', '--token', 'demo'], { input: '/query/get_estados\n/query/get_estados?token=pruebas\n' });
    const [real, test] = withDefault.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(real.response.estado[0]).toBe('Coahuila de Zaragoza');
    expect(test.response.estado[0]).toMatch(/prueba/);
  });

  it('answers each line as it arrives (a driver can wait for each answer)', async () => {
    const child = spawn(process.execPath, [CLI, 'query'], { env: { ...process.env, CPMX_DATA: dataPath } });
    const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    for (const cp of ['09810', '55800', '99999']) {
      child.stdin.write(`/query/info_cp/${cp}?token=demo&type=simplified\n`);
      const { value } = await answers.next();
      const body = JSON.parse(value as string);
      expect(body.response?.cp ?? body.code_error).toBe(cp === '99999' ? 105 : cp);
    }
    child.stdin.end();
    const code = await new Promise((done) => child.on('close', done));
    expect(code).toBe(0);
  });
});

describe('build and status', () => {
  it('builds from --source to --out with a summary, and status shows the header', () => {
    const out = join(dir, 'cli-built.msgpack');
    const run = cpmx(['build', '--source', FIXTURE, '--out', out], { env: { SOURCE_DATE_EPOCH: BUILD_EPOCH } });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/rows 22, codes 15, states 6, municipalities 12/);
    expect(run.stdout).toMatch(/bytes in \d+\.\d\d s; source latin1, sha256 [0-9a-f]{64}/);
    expect(readFileSync(out).equals(readFileSync(dataPath))).toBe(true);
    const status = cpmx(['status', '--data', out]);
    expect(status.status).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ artifact: out, loaded: true, header: { rows: 22, codes: 15, version: FORMAT_VERSION } });
    expect(cpmx(['status', '--data', join(dir, 'none.msgpack')]).status).toBe(2);
  });

  it('says plainly when the artifact cannot be written, exit 1, no trace', () => {
    const run = cpmx(['build', '--source', FIXTURE, '--out', join(FIXTURE, 'inside-a-file.msgpack')]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/cpmx build: cannot write .*inside-a-file\.msgpack: E[A-Z]+/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('takes CPMX_CATALOG when there is no --source', () => {
    const out = join(dir, 'from-env.msgpack');
    const run = cpmx(['build', '--out', out], { env: { CPMX_CATALOG: FIXTURE } });
    expect(run.stderr).toContain(`reading ${FIXTURE} (CPMX_CATALOG)`);
    expect(run.status).toBe(0);
  });

  it('refuses a bad catalog with exit 1, naming file and line, keeping the old artifact', () => {
    const out = join(dir, 'kept.msgpack');
    cpmx(['build', '--source', FIXTURE, '--out', out]);
    const before = readFileSync(out);
    const bad = join(dir, 'bad.txt');
    const lines = readFileSync(FIXTURE, 'latin1').split('\r\n');
    lines[4] = lines[4]!.replace(/^\d{5}/, '9810');
    writeFileSync(bad, lines.join('\r\n'), 'latin1');
    const run = cpmx(['build', '--source', bad, '--out', out]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('bad.txt, line 5: d_codigo "9810" is not a 5-digit postal code');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(out).equals(before)).toBe(true);
  });

  it('in a package with no catalog anywhere, --if-found succeeds and says where to put one', () => {
    const pkg = join(dir, 'isolated', 'pkg');
    mkdirSync(pkg, { recursive: true });
    cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true });
    cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
    symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'));
    const bin = join(pkg, 'dist', 'cli.cjs');
    const optional = cpmx(['build', '--if-found'], { bin, env: { CPMX_CATALOG: undefined } });
    expect(optional.status).toBe(0);
    expect(optional.stderr).toContain('no catalog found');
    expect(optional.stderr).toContain(join(pkg, 'data', 'CPdescargatxt.zip'));
    expect(optional.stderr).toMatch(/Test mode \(token "pruebas"\) works without a catalog/);
    expect(cpmx(['build'], { bin, env: { CPMX_CATALOG: undefined } }).status).toBe(1);
    const test = cpmx(['get_estados', '--token', 'pruebas'], { bin, env: { CPMX_DATA: undefined } });
    expect(test.status).toBe(0);
    const real = cpmx(['get_estados', '--token', 'demo'], { bin, env: { CPMX_DATA: undefined } });
    expect(real.status).toBe(2);
    expect(real.stderr).toContain(join(pkg, 'data', 'cpmx.msgpack'));
  });
});
