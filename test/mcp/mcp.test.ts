/**
 * `cpmx mcp` (issue 24, part 7) as an MCP client runs it: the compiled bin started by the
 * official SDK's own Client and StdioClientTransport, answering from the real catalog. Every
 * lookup tool's answer is compared with the library's for the same question; validate and
 * parse with `validateAddress` and `parseAddress` on real addresses (test/fixtures, each with
 * its source); bad arguments get clear errors and the server keeps answering; closing stdin
 * ends it with status 0.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { random } from '../../bench/workload.js';
import { METHODS } from '../../src/core/request.js';
import { createClient, type Body, type CpmxClient } from '../../src/index.js';
import { parseAddress, validateAddress } from '../../src/validate/index.js';
import { CLI, buildInto, ok, realCatalogPath, root, tempDir } from '../helpers.js';
import { buildGeoBeside, realPolygonPaths } from '../support/geo.js';

const dir = tempDir();
let dataPath: string;
let library: CpmxClient;
let mcp: Client;
let stderr = '';

const { CPMX_TOKEN: _token, CPMX_DATA: _data, ...environment } = process.env;

/** The SDK's client connected to `cpmx mcp` over its stdio. */
async function connect(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env: environment as Record<string, string>, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'cpmx-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  dataPath = await buildInto(realCatalogPath(), dir);
  // The geocoding tools answer from the real polygons beside it (docs/geo.md).
  buildGeoBeside(dataPath, realPolygonPaths());
  library = createClient({ token: 'mcp-test', dataPath });
  mcp = await connect(['--data', dataPath, '--token', 'mcp-test']);
});

afterAll(async () => {
  await mcp?.close();
});

interface Answer {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

async function call(name: string, args: Record<string, unknown>, client = mcp): Promise<Answer> {
  return (await client.callTool({ name, arguments: args })) as Answer;
}

/** The body a tool answered, checked to be said the same way in its text and its structured content. */
function bodyOf(answer: Answer): unknown {
  expect(answer.content).toHaveLength(1);
  expect(answer.content[0]!.type).toBe('text');
  const body = JSON.parse(answer.content[0]!.text);
  if (Array.isArray(body)) expect(answer.structuredContent).toBeUndefined();
  else expect(answer.structuredContent).toEqual(body);
  return body;
}

/** A lookup tool answers exactly as the library does, an error envelope as a tool error. */
async function expectSame(name: string, args: Record<string, unknown>, expected: Body): Promise<void> {
  const answer = await call(name, args);
  expect(bodyOf(answer), `${name} ${JSON.stringify(args)}`).toEqual(expected);
  expect(answer.isError === true, `${name} ${JSON.stringify(args)} isError`).toBe(!Array.isArray(expected) && expected.error);
}

/** The lookup tools: every method of the contract's table but an older name and the account method. */
const LOOKUPS = Object.keys(METHODS).filter((method) => method !== 'get_cp_advanced' && method !== 'cuenta/consultas_disponibles');

describe('the tools it lists', () => {
  it('are the lookups of the method table, validate and parse, each described with its arguments', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...LOOKUPS, 'validate', 'parse']);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(60);
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: string }).description?.length, `${tool.name}.${name}`).toBeGreaterThan(10);
      }
    }
    const schema = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema;
    // The arguments are the contract's: the path segment by what it holds, then the query parameters.
    expect(Object.keys(schema('info_cp').properties!)).toEqual(['cp', 'type']);
    expect(schema('info_cp').required).toEqual(['cp']);
    expect(Object.keys(schema('search_cp_advanced').properties!)).toEqual(['estado', 'municipio', 'colonia', 'limit']);
    expect(schema('search_cp_advanced').required).toEqual(['estado']);
    expect(schema('get_colonia_por_estado_municipio').required).toEqual(['estado', 'municipio']);
    expect(schema('get_cp_por_municipio').required).toEqual(['municipio']);
    expect(schema('getCitiesByStateCode').required).toEqual(['clave']);
    expect(schema('get_estados').required).toBeUndefined();
    expect(schema('validate').required).toBeUndefined();
    expect(schema('parse').required).toEqual(['address']);
    // Each lookup shows an example of its arguments, in the types its schema gives them.
    expect(tools.find((tool) => tool.name === 'search_cp_advanced')!.description).toMatch(/Example: \{[^}]*"limit":\d+\}/);
  });

  it('say who serves them', () => {
    expect(mcp.getServerVersion()).toMatchObject({ name: 'cpmx', version: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version });
    expect(mcp.getInstructions()).toContain('SEPOMEX');
  });
});

describe('every lookup tool answers as the library does on the real catalog', () => {
  it('for each tool, with every argument it takes', async () => {
    const cases: [string, Record<string, unknown>, (c: CpmxClient) => Body][] = [
      ['info_cp', { cp: '09810' }, (c) => c.infoCp('09810')],
      ['info_cp', { cp: '09810', type: 'simplified' }, (c) => c.infoCp('09810', { type: 'simplified' })],
      ['search_cp', { partial: '0981' }, (c) => c.searchCp('0981')],
      ['get_estados', {}, (c) => c.getEstados()],
      ['get_municipio_por_estado', { estado: 'nuevo leon' }, (c) => c.getMunicipioPorEstado('nuevo leon')],
      ['get_colonia_por_cp', { cp: '03940' }, (c) => c.getColoniaPorCp('03940')],
      ['get_cp_por_estado', { estado: 'CDMX' }, (c) => c.getCpPorEstado('CDMX')],
      ['get_cp_por_municipio', { municipio: 'Benito Juárez' }, (c) => c.getCpPorMunicipio('Benito Juárez')],
      ['get_cp_por_municipio', { municipio: 'Benito Juárez', estado: 'Quintana Roo' }, (c) => c.getCpPorMunicipio('Benito Juárez', { estado: 'Quintana Roo' })],
      ['get_colonia_por_municipio', { municipio: 'Zapopan' }, (c) => c.getColoniaPorMunicipio('Zapopan')],
      ['get_colonia_por_municipio', { municipio: 'Benito Juárez', estado: 'Ciudad de México' }, (c) => c.getColoniaPorMunicipio('Benito Juárez', { estado: 'Ciudad de México' })],
      ['get_colonia_por_estado_municipio', { estado: 'Jalisco', municipio: 'Zapopan' }, (c) => c.getColoniaPorEstadoMunicipio('Jalisco', 'Zapopan')],
      ['search_cp_advanced', { estado: 'Jalisco' }, (c) => c.searchCpAdvanced('Jalisco')],
      [
        'search_cp_advanced',
        { estado: 'Jalisco', municipio: 'Zapopan', colonia: 'jardines', limit: 7 },
        (c) => c.searchCpAdvanced('Jalisco', { municipio: 'Zapopan', colonia: 'jardines', limit: 7 }),
      ],
      ['get_estado_clave', {}, (c) => c.getEstadoClave()],
      ['get_municipio_clave_por_estado', { estado: 'Oaxaca' }, (c) => c.getMunicipioClavePorEstado('Oaxaca')],
      ['get_municipio_clave_por_clave_estado', { clave: '9' }, (c) => c.getMunicipioClavePorClaveEstado('9')],
      ['getCitiesByStateCode', { clave: '19' }, (c) => c.getCitiesByStateCode('19')],
      ['info_cp_geocoding', { cp: '09810' }, (c) => c.infoCpGeocoding('09810')],
      ['info_cp_geocoding_reverse', { lat: 19.43263, lng: -99.13321 }, (c) => c.infoCpGeocodingReverse(19.43263, -99.13321)],
    ];
    expect([...new Set(cases.map(([name]) => name))].sort()).toEqual([...LOOKUPS].sort());
    for (const [name, args, ask] of cases) {
      const expected = ask(library);
      // Every one of these is a real answer, not an error both sides happen to share.
      ok((Array.isArray(expected) ? expected[0]! : expected) as Body);
      await expectSame(name, args, expected);
    }
  });

  it('for every state, and 150 codes drawn from the whole catalog in both modes', async () => {
    const states = ok(library.getEstados()).response.estado;
    expect(states).toHaveLength(32);
    const codes: string[] = [];
    for (const [i, estado] of states.entries()) {
      await expectSame('get_municipio_por_estado', { estado }, library.getMunicipioPorEstado(estado));
      await expectSame('getCitiesByStateCode', { clave: String(i + 1) }, library.getCitiesByStateCode(String(i + 1)));
      codes.push(...ok(library.getCpPorEstado(estado)).response.cp);
    }
    expect(codes.length).toBeGreaterThan(30_000);
    const next = random(24);
    for (let i = 0; i < 150; i++) {
      const cp = codes[Math.floor(next() * codes.length)]!;
      await expectSame('info_cp', { cp }, library.infoCp(cp));
      await expectSame('info_cp', { cp, type: 'simplified' }, library.infoCp(cp, { type: 'simplified' }));
    }
  });

  it('answers the contract’s error envelopes as tool errors, as the library does', async () => {
    const cases: [string, Record<string, unknown>, (c: CpmxClient) => Body, number][] = [
      ['info_cp', {}, (c) => c.infoCp(''), 101],
      ['info_cp', { cp: '0981' }, (c) => c.infoCp('0981'), 102],
      ['info_cp', { cp: '-0981' }, (c) => c.infoCp('-0981'), 104],
      ['info_cp', { cp: '00000' }, (c) => c.infoCp('00000'), 105],
      ['info_cp', { cp: '09810', type: 'full' }, (c) => c.infoCp('09810', { type: 'full' as 'simplified' }), 112],
      // A number is read as its text, as the library reads one: 9810 has lost its zero.
      ['info_cp', { cp: 9810 }, (c) => c.infoCp(9810 as unknown as string), 102],
      ['get_municipio_por_estado', { estado: '  ' }, (c) => c.getMunicipioPorEstado('  '), 109],
      ['get_cp_por_estado', { estado: 'Narnia' }, (c) => c.getCpPorEstado('Narnia'), 110],
      ['get_colonia_por_estado_municipio', { estado: 'Jalisco' }, (c) => c.getColoniaPorEstadoMunicipio('Jalisco', ''), 114],
      ['get_cp_por_municipio', { municipio: 'Gotham' }, (c) => c.getCpPorMunicipio('Gotham'), 115],
      ['getCitiesByStateCode', { clave: '9a' }, (c) => c.getCitiesByStateCode('9a'), 116],
      ['search_cp_advanced', { estado: 'Jalisco', limit: 0 }, (c) => c.searchCpAdvanced('Jalisco', { limit: 0 }), 117],
      ['search_cp_advanced', { estado: 'Jalisco', limit: 100_001 }, (c) => c.searchCpAdvanced('Jalisco', { limit: 100_001 }), 117],
    ];
    for (const [name, args, ask, code] of cases) {
      const expected = ask(library);
      expect(expected, `${name} ${JSON.stringify(args)}`).toMatchObject({ error: true, code_error: code, response: null });
      await expectSame(name, args, expected);
    }
  });
});

describe('validate and parse', () => {
  interface Fixture {
    address: string;
    cp: string;
    estado: string;
    municipio: string;
  }
  const oneLine = parseCsv(readFileSync(join(root, 'test', 'fixtures', 'one-line-addresses.csv')), { columns: true }) as Fixture[];

  it('validate answers as validateAddress for real records, right and wrong, by every key name', async () => {
    // addresses.csv holds a broken row for `cpmx validate`; the tool takes records, so it is left out.
    const records: Record<string, string>[] = parseCsv(readFileSync(join(root, 'test', 'fixtures', 'addresses.csv')), { columns: true, relax_column_count: true });
    for (const row of oneLine) records.push({ cp: row.cp, estado: row.estado, municipio: row.municipio });
    // The same places with a wrong state: each must come back with 120 and the state suggested.
    for (const row of oneLine.slice(0, 40)) records.push({ cp: row.cp, estado: row.estado === 'Jalisco' ? 'Sonora' : 'Jalisco' });
    let invalid = 0;
    for (const record of records) {
      const expected = validateAddress(library, record);
      if (!expected.valid) invalid++;
      const answer = await call('validate', record);
      expect(answer.isError, JSON.stringify(record)).toBeUndefined();
      expect(bodyOf(answer), JSON.stringify(record)).toEqual(expected);
    }
    expect(records.length).toBeGreaterThan(350);
    expect(invalid).toBeGreaterThanOrEqual(40);
    // Without a code, the names' code is suggested (issue 33's codes from names).
    const noCode = { asentamiento: 'Lomas de Chapultepec I Sección', municipio: 'Miguel Hidalgo', estado: 'CDMX' };
    const found = await call('validate', noCode);
    expect(found.isError).toBeUndefined();
    expect(bodyOf(found)).toEqual(validateAddress(library, noCode));
    expect((bodyOf(found) as { suggestions: { cp?: string } }).suggestions.cp).toBe('11000');
  });

  it('parse answers as parseAddress for 321 real one-line addresses', async () => {
    expect(oneLine.length).toBeGreaterThanOrEqual(300);
    for (const { address } of oneLine) {
      const answer = await call('parse', { address });
      expect(answer.isError, address).toBeUndefined();
      expect(bodyOf(answer), address).toEqual(JSON.parse(JSON.stringify(parseAddress(library, address))));
    }
  });

  it('parse reads a text that holds no address as 130 with its reason, not as a failure', async () => {
    for (const address of ['', '\u0000\u0001\u0002', 'x'.repeat(5000)]) {
      const body = bodyOf(await call('parse', { address })) as { valid: boolean; errors: { code_error: number; reason: string }[] };
      expect(body.valid).toBe(false);
      expect(body.errors[0]).toMatchObject({ code_error: 130, reason: expect.any(String) });
    }
  });
});

describe('bad arguments', () => {
  it('are refused with a message that names the argument, and the server keeps answering', async () => {
    const refusals: [string, Record<string, unknown>, RegExp][] = [
      ['info_cp', { codigo: '09810' }, /unknown argument "codigo"; info_cp takes "cp", "type"/],
      ['info_cp', { cp: { value: '09810' } }, /"cp" must be text, got an object/],
      ['search_cp_advanced', { estado: ['Jalisco'] }, /"estado" must be text, got an array/],
      ['get_estados', { estado: 'Jalisco' }, /get_estados takes no arguments, got "estado"/],
      ['validate', { cp: '09810', calle: 'Ermita' }, /unknown argument "calle"; validate takes "cp", /],
      ['validate', { cp: true }, /"cp" must be text, got a boolean/],
      ['parse', {}, /parse: needs "address"/],
      ['parse', { text: 'Av. Juárez 1, Centro, 06000 CDMX' }, /unknown argument "text"; parse takes "address"/],
    ];
    for (const [name, args, message] of refusals) {
      const answer = await call(name, args);
      expect(answer.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(answer.content[0]!.text).toMatch(message);
      expect(answer.content[0]!.text).not.toMatch(/\n\s+at /);
    }
    await expect(mcp.callTool({ name: 'get_cp_por_colonia', arguments: {} })).rejects.toThrow(/get_cp_por_colonia not found; cpmx has info_cp,/);
    expect(bodyOf(await call('info_cp', { cp: '09810', type: 'simplified' }))).toEqual(library.infoCp('09810', { type: 'simplified' }));
    expect(stderr).toBe('');
  });
});

describe('the process', () => {
  /** `cpmx mcp` spoken to in raw JSON-RPC lines, as any client's bytes reach it. */
  function raw(lines: string[]) {
    return new Promise<{ status: number | null; signal: string | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'mcp', '--data', dataPath], { env: environment, stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('error', reject);
      child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
      for (const line of lines) child.stdin.write(`${line}\n`);
      child.stdin.end();
    });
  }
  /** The JSON-RPC answers on stdout, by id. */
  const answersById = (stdout: string) =>
    new Map(
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line))
        .map((answer) => [answer.id, answer]),
    );
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

  it('ends with status 0 when the client closes stdin, having answered what it was sent', async () => {
    const run = await raw([
      initialize,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_cp', arguments: { partial: '0981' } } }),
    ]);
    expect(run).toMatchObject({ status: 0, signal: null, stderr: '' });
    const answers = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
    expect(answers[0].result.serverInfo.name).toBe('cpmx');
    expect(JSON.parse(answers[1].result.content[0].text)).toEqual(library.searchCp('0981'));
  });

  it('ends with status 0 when stdin closes before anything is said', async () => {
    expect(await raw([])).toMatchObject({ status: 0, signal: null, stdout: '', stderr: '' });
  });

  it('answers malformed messages with JSON-RPC errors, never a crash, and goes on', async () => {
    const run = await raw([
      initialize,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'info_cp', arguments: 'cp=09810' } }),
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: { cp: '09810' } } }),
      'garbage{',
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'no/such/method' }),
      JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'get_colonia_por_cp', arguments: { cp: '09810' } } }),
    ]);
    expect(run.status).toBe(0);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const answers = answersById(run.stdout);
    // The SDK refuses a request its schema rejects (with -32603, its own choice), saying where.
    expect(answers.get(2).error.message).toMatch(/"arguments"[\s\S]*expected record/);
    expect(answers.get(3).error.message).toMatch(/"name"[\s\S]*expected string/);
    expect(answers.get(4).error.code).toBe(-32601);
    expect(JSON.parse(answers.get(5).result.content[0].text)).toEqual(library.getColoniaPorCp('09810'));
  });

  it('answers a message over its 4 MiB bound with an error under its id, says so on stderr, and goes on (issue 37, item 8)', async () => {
    const call = (id: number, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_cp', arguments: args } });
    // Over the SDK 1.32's own 10 MiB, which ended the whole session; the id first, then after the params.
    const huge = call(2, { partial: '0981', padding: 'x'.repeat(12 * 1024 * 1024) });
    const idLast = JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'search_cp', arguments: { partial: 'x'.repeat(5 * 1024 * 1024) } }, id: 'último' });
    // Just under the bound: read and answered as any other (the tool refuses the argument it does not take).
    const under = call(4, { partial: '0981', padding: 'x'.repeat(4 * 1024 * 1024 - 200) });
    const run = await raw([initialize, huge, idLast, 'y'.repeat(5 * 1024 * 1024), under, call(5, { partial: '0981' })]);
    expect(run.status).toBe(0);
    const answers = answersById(run.stdout);
    expect(answers.get(2).error).toEqual({ code: -32600, message: `Invalid request: the message has ${huge.length} bytes, more than the limit of 4194304 bytes (4 MiB)` });
    expect(answers.get('último').error.code).toBe(-32600);
    expect(answers.get(null).error).toEqual({ code: -32700, message: 'Parse error: the message is larger than 4194304 bytes (4 MiB) and was not read' });
    expect(answers.get(4).error?.code ?? answers.get(4).result.isError).toBeTruthy();
    expect(JSON.stringify(answers.get(4))).not.toContain('limit');
    expect(JSON.parse(answers.get(5).result.content[0].text)).toEqual(library.searchCp('0981'));
    expect(run.stderr).toContain(`cpmx mcp: a message of ${huge.length} bytes was refused (id 2): the limit is 4194304 bytes (4 MiB); the session goes on\n`);
    expect(run.stderr).toContain('(id "último")');
    expect(run.stderr).toContain('(its id could not be read)');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('answers a client that reads slowly without a MaxListenersExceededWarning (issue 37, item 8)', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--data', dataPath], { env: environment, stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Answers of many kB, asked for all at once, and nothing read until the server has read
    // nearly every request: they are padded with JSON's own spaces to far more than a pipe
    // holds, so the last write completes only once the server has taken all but the last.
    const count = 60;
    const padding = ' '.repeat(32 * 1024);
    child.stdin.write(`${initialize}\n`);
    for (let id = 2; id < count + 2; id++) child.stdin.write(`{"jsonrpc":"2.0",${padding}"id":${id},"method":"tools/call","params":{"name":"get_cp_por_estado","arguments":{"estado":"Jalisco"}}}\n`);
    await new Promise<void>((resolve) => child.stdin.end(resolve));
    let stdout = '';
    for await (const chunk of child.stdout) stdout += chunk.toString();
    expect(await closed).toBe(0);
    const ids = stdout.trimEnd().split('\n').map((line) => JSON.parse(line).id);
    expect(ids).toEqual(Array.from({ length: count + 1 }, (_, i) => i + 1));
    expect(stderr).not.toContain('MaxListenersExceededWarning');
  });

  it('says what is wrong with --data before serving, with status 2 and no trace', () => {
    const run = spawnSync(process.execPath, [CLI, 'mcp', '--data', join(dir, 'missing.msgpack')], { env: environment, input: '', encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^cpmx: .*missing\.msgpack/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('answers test mode with --token pruebas, reading no catalog, as the library does', async () => {
    const test = await connect(['--data', join(dir, 'missing.msgpack'), '--token', 'pruebas']);
    try {
      const pruebas = createClient({ token: 'pruebas', dataPath: join(dir, 'missing.msgpack') });
      expect(bodyOf(await call('info_cp', { cp: '09810' }, test))).toEqual(pruebas.infoCp('09810'));
      expect(bodyOf(await call('get_estados', {}, test))).toEqual(pruebas.getEstados());
    } finally {
      await test.close();
    }
  });

  it('is the only thing that loads the SDK, and only when it runs', () => {
    const bundles = readdirSync(join(root, 'dist')).filter((file) => file.endsWith('.js') || file.endsWith('.cjs'));
    const loading = bundles.filter((file) => /(?:from|import\()\s*["']@modelcontextprotocol\//.test(readFileSync(join(root, 'dist', file), 'utf8')));
    // One lazily loaded chunk of the command line; no library bundle, and not the bin's entry.
    expect(loading).toHaveLength(1);
    expect(loading[0]).toMatch(/^cli-.+\.js$/);
    const chunk = readFileSync(join(root, 'dist', loading[0]!), 'utf8');
    expect(chunk).not.toMatch(/from\s*["']@modelcontextprotocol\//);
  });

  it('explains itself: how to register it in an MCP client, and that it needs the SDK', () => {
    const run = spawnSync(process.execPath, [CLI, 'mcp', '--help'], { env: environment, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('claude_desktop_config.json');
    expect(run.stdout).toContain('"mcpServers"');
    expect(run.stdout).toContain('npm install\n@modelcontextprotocol/sdk');
    for (const tool of [...LOOKUPS, 'validate', 'parse']) expect(run.stdout).toContain(tool);
    // The configuration shown is JSON a client can read.
    const config = /\{ "mcpServers".*\} \} \}/.exec(run.stdout)![0];
    expect(JSON.parse(config).mcpServers.cpmx).toEqual({ command: 'npx', args: ['cpmx', 'mcp'] });
  });
});
