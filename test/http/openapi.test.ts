/**
 * The OpenAPI 3.1 document (src/http/openapi.ts), checked by real tools: a real OpenAPI 3.1
 * validator (@seriousme/openapi-schema-validator) accepts it and refuses damaged copies; every
 * body the real catalog gives, each method with good and bad values and tokens, is one its
 * path documents for its HTTP status, and validates against that response's schema (ajv,
 * JSON Schema 2020-12); and a client generated from the served document (openapi-typescript's
 * types, type-checked by tsc, with openapi-fetch) calls a running `cpmx serve` for every
 * method and gets the library's bodies.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { transform } from 'esbuild';
import createFetchClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { METHOD_TEXTS, errorsOf, exampleTarget } from '../../src/core/method-texts.js';
import { METHODS, UNAVAILABLE_METHODS, type Method, type Parameter, type SegmentKind } from '../../src/core/methods.js';
import { ERRORS, createClient, type CpmxClient } from '../../src/index.js';
import { VERSION } from '../../src/version.js';
import { CLI, FIXTURE, buildInto, realCatalogPath, root, tempDir } from '../helpers.js';
import { startServe, type Listening } from '../support/http.js';
import { randomCodes } from '../support/web.js';
import { buildGeoBeside, realPolygonPaths } from '../support/geo.js';

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> } | { $ref: string }> };
type Document = { openapi: string; paths: Record<string, { get: Operation }>; components: { schemas: Record<string, object>; responses: Record<string, { content: Record<string, { schema: object }> }> } };

const dir = tempDir();
let fixture: string;
let served: Listening;
let document: Document;
let library: CpmxClient;
let real: CpmxClient;
let bare: CpmxClient;

const methods = Object.keys(METHODS) as Method[];
type Row = { segment?: SegmentKind; parameters: readonly Parameter[]; required?: readonly Parameter[] };
const rowOf = (method: Method) => METHODS[method] as Row;
const templateOf = (method: Method) => `/query/${method}${rowOf(method).segment ? `/{${rowOf(method).segment}}` : ''}`;

function cpmx(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
}

beforeAll(async () => {
  fixture = await buildInto(FIXTURE, dir, 'fixture.msgpack');
  buildGeoBeside(fixture);
  // An artifact without geodata: the geocoding methods answer 113.
  bare = createClient({ dataPath: await buildInto(FIXTURE, dir, 'bare.msgpack') });
  library = createClient({ token: 'demo', dataPath: fixture });
  served = await startServe(['--data', fixture]);
  document = (await (await fetch(`${served.url}/openapi.json`)).json()) as Document;
  // No token of its own: a path without one answers 106, as over HTTP.
  const realPath = await buildInto(realCatalogPath(), dir, 'real.msgpack');
  // The geocoding methods answer from the real polygons beside it (docs/geo.md).
  buildGeoBeside(realPath, realPolygonPaths());
  real = createClient({ dataPath: realPath });
});

describe('the OpenAPI document', () => {
  it('is served without a token or a credit, and `cpmx openapi` prints the same', async () => {
    const response = await fetch(`${served.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const printed = cpmx(['openapi']);
    expect(printed.status).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(document);
    expect(document.openapi).toBe('3.1.0');
    expect((document as unknown as { info: { version: string } }).info.version).toBe(VERSION);
    const withServer = JSON.parse(cpmx(['openapi', '--server', 'http://localhost:8080/cpmx']).stdout) as { servers: unknown };
    expect(withServer.servers).toEqual([{ url: 'http://localhost:8080/cpmx' }]);
    expect(cpmx(['openapi', '--help']).stdout).toContain('Usage: cpmx openapi [--server URL]');
    const wrong = cpmx(['openapi', '--server', 'not a url']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('--server must be a URL');
  });

  it('is valid OpenAPI 3.1 for a real validator, which refuses damaged copies', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // A path parameter must be required, and a response needs its description: the validator says so.
    const optionalPath = structuredClone(document) as unknown as { paths: Record<string, { get: { parameters: { required: boolean }[] } }> };
    optionalPath.paths['/query/info_cp/{cp}']!.get.parameters[0]!.required = false;
    expect((await new Validator().validate(optionalPath as unknown as Parameters<Validator['validate']>[0])).valid).toBe(false);
    const noDescription = structuredClone(document) as unknown as { paths: Record<string, { get: { responses: Record<string, { description?: string }> } }> };
    delete noDescription.paths['/query/get_estados']!.get.responses['200']!.description;
    expect((await new Validator().validate(noDescription as unknown as Parameters<Validator['validate']>[0])).valid).toBe(false);
  });

  it('has a path for every row of the method table, with its parameters, and the 113 methods', () => {
    for (const method of methods) {
      const operation = document.paths[templateOf(method)]?.get as unknown as { parameters: { name?: string; in?: string; $ref?: string }[]; responses: Record<string, unknown> };
      expect(operation, method).toBeDefined();
      const { segment, parameters } = rowOf(method);
      expect(operation.parameters.map((p) => p.name ?? p.$ref), method).toEqual([...(segment ? [segment] : []), ...parameters, '#/components/parameters/token']);
      const statuses = new Set(errorsOf(method).map((code) => String(ERRORS[code][1])));
      expect(Object.keys(operation.responses).sort(), method).toEqual(['200', ...statuses, '414', '500', '503'].sort());
    }
    for (const method of UNAVAILABLE_METHODS) expect(Object.keys(document.paths[`/query/${method}`]!.get.responses), method).toEqual(['501']);
  });
});

describe('real bodies against the document', () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validators = new Map<string, ValidateFunction>();

  /** The schema the document gives a path's body of `status`, compiled with the document's components. */
  function validatorFor(template: string, status: number): ValidateFunction | undefined {
    const key = `${template} ${status}`;
    if (!validators.has(key)) {
      let response = document.paths[template]?.get.responses[String(status)];
      if (!response) return undefined;
      if ('$ref' in response) response = document.components.responses[response.$ref.split('/').pop()!]!;
      const schema = JSON.parse(JSON.stringify(response.content!['application/json']!.schema).replaceAll('#/components/schemas/', '#/$defs/')) as object;
      validators.set(key, ajv.compile({ ...schema, $defs: JSON.parse(JSON.stringify(document.components.schemas).replaceAll('#/components/schemas/', '#/$defs/')) }));
    }
    return validators.get(key);
  }

  /** Each method with good and bad segments and parameters, with a real token, none, and the test token. */
  function requests(): [Method, string][] {
    const segments = ['', ' ', '0', '9', '09', '123', '1234', '123456', '-1234', 'abcde', '00000', '99999', '09810', '44100', 'Nowhere', 'CDMX', 'Jalisco', 'Zapopan', 'Benito Juárez', '%20'];
    const queries = ['', 'type=simplified', 'type=complete', 'estado=Jalisco', 'estado=Nowhere', 'estado=%20', 'municipio=Zapopan', 'municipio=Nowhere', 'municipio=%20', 'colonia=Centro', 'limit=0', 'limit=2', 'limit=x', 'estado=Nowhere&municipio=Zapopan', 'estado=Jalisco&municipio=Nowhere', 'estado=Jalisco&municipio=Zapopan&colonia=Centro&limit=2',
      // Points: a code's (the Zócalo), at sea, abroad, in a state without polygons, in a gap between areas; missing, not numbers, out of range.
      'lat=19.43263&lng=-99.13321', 'lat=23&lng=-92', 'lat=14.63&lng=-90.51', 'lat=25.67&lng=-100.31', 'lat=19.3014&lng=-99.1636', 'lat=19.4', 'lat=x&lng=1', 'lat=95&lng=1'];
    const out: [Method, string][] = [];
    for (const method of methods) {
      const { segment } = rowOf(method);
      for (const value of segment ? segments : ['']) {
        for (const query of queries) {
          for (const token of ['token=demo', 'token=pruebas', '']) {
            const search = [query, token].filter(Boolean).join('&');
            out.push([method, `/query/${method}${segment ? `/${encodeURIComponent(value).replace('%2520', '%20')}` : ''}${search ? `?${search}` : ''}`]);
          }
        }
      }
    }
    return out;
  }

  it('every answer of every method on the real catalog is documented for its status and fits its schema', () => {
    const seen = new Set<string>();
    let count = 0;
    const geocoding = methods.filter((method) => METHOD_TEXTS[method].errors?.includes(113)).map((method): [Method, string, CpmxClient] => [method, `${exampleTarget(method)}${rowOf(method).segment ? '?' : '&'}token=demo`, bare]);
    for (const [method, path, client = real] of [...requests(), ...geocoding]) {
      const { status, body } = client.query(path);
      const validate = validatorFor(templateOf(method), status);
      expect(validate, `${path}: status ${status} is not documented`).toBeDefined();
      expect(validate!(body), `${path} (${status}): ${ajv.errorsText(validate!.errors)}`).toBe(true);
      seen.add(`${method} ${(body as { code_error?: number }).code_error ?? 0}`);
      count++;
    }
    expect(count).toBeGreaterThan(3000);
    // Every error each method documents was met (108 and 107 need a registry: below).
    for (const method of methods) {
      for (const code of errorsOf(method).filter((code) => code !== 107 && code !== 108)) expect(seen.has(`${method} ${code}`), `${method} never answered ${code}`).toBe(true);
    }
  });

  it('info_cp of random real codes, full and simplified, fits its schemas', () => {
    const full = validatorFor('/query/info_cp/{cp}', 200)!;
    for (const cp of randomCodes(real, 300, 7)) {
      expect(full(real.infoCp(cp)), cp).toBe(true);
      expect(full(real.infoCp(cp, { type: 'simplified' })), cp).toBe(true);
    }
    // The schema is not a blank check: a record with a field too many, or a code of 4 digits, fails.
    const body = real.infoCp('44100') as unknown as { response: Record<string, unknown> }[];
    expect(full([{ ...body[0]!, response: { ...body[0]!.response, extra: 1 } }])).toBe(false);
    expect(full([{ ...body[0]!, response: { ...body[0]!.response, cp: '4410' } }])).toBe(false);
  });

  it('the errors of a registry (107, 108) fit too', async () => {
    const registry = join(dir, 'tokens.db');
    const created = cpmx(['tokens', 'create', '--name', 'poor', '--credits', '1', '--registry', registry]);
    expect(created.status, created.stderr).toBe(0);
    const poor = created.stdout.trim();
    const counted = await startServe(['--data', fixture, '--registry', registry]);
    try {
      for (const [path, code] of [
        ['/query/info_cp/09810?token=unknown', 107],
        [`/query/info_cp/09810?token=${poor}`, 0],
        [`/query/info_cp/09810?token=${poor}`, 108],
      ] as const) {
        const response = await fetch(counted.url + path);
        const body = (await response.json()) as { code_error: number } | { code_error: number }[];
        expect(Array.isArray(body) ? 0 : body.code_error, path).toBe(code);
        expect(validatorFor('/query/info_cp/{cp}', response.status)!(body), path).toBe(true);
      }
    } finally {
      await counted.close();
    }
  });
});

describe('a client generated from the served document', () => {
  /** The generated client's call of a method's example, as TypeScript. */
  function call(method: Method, token: string): string {
    const { segment, parameters } = rowOf(method);
    const { example } = METHOD_TEXTS[method];
    const path = segment ? `path: ${JSON.stringify({ [segment]: example[segment] })}, ` : '';
    const query: Record<string, string | number> = { token };
    for (const parameter of parameters) if (example[parameter] !== undefined) query[parameter] = ['limit', 'lat', 'lng'].includes(parameter) ? Number(example[parameter]) : example[parameter]!;
    return `client.GET(${JSON.stringify(templateOf(method))}, { params: { ${path}query: ${JSON.stringify(query)} } })`;
  }

  /** Type-checks each source beside the generated `api.d.ts`, in one program: each one's diagnostics' texts. */
  function typeCheck(sources: Record<string, string>): Record<string, string[]> {
    const files = Object.entries(sources).map(([name, source]) => {
      writeFileSync(join(dir, name), source);
      return join(dir, name);
    });
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      paths: { 'openapi-fetch': [join(root, 'node_modules', 'openapi-fetch', 'dist', 'index.d.mts')] },
    });
    return Object.fromEntries(
      Object.keys(sources).map((name, i) => [name, ts.getPreEmitDiagnostics(program, program.getSourceFile(files[i]!)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))]),
    );
  }

  it('type-checks a call of every method, refuses a wrong one, and gets the library’s bodies from cpmx serve', async () => {
    const generated = astToString(await openapiTS(new URL(`${served.url}/openapi.json`)));
    writeFileSync(join(dir, 'api.d.ts'), generated);
    for (const method of methods) expect(generated, method).toContain(JSON.stringify(templateOf(method)));

    const calls = `import type { paths } from './api';
import type createClient from 'openapi-fetch';
export async function run(create: typeof createClient, baseUrl: string) {
  const client = create<paths>({ baseUrl });
  const bodies: Record<string, unknown> = {};
${methods.map((method) => `  bodies[${JSON.stringify(method)}] = (await ${call(method, 'demo')}).data;`).join('\n')}
  const wrong = await client.GET('/query/info_cp/{cp}', { params: { path: { cp: '0981' }, query: { token: 'demo' } } });
  bodies.error = [wrong.response.status, wrong.error];
  return bodies;
}
`;
    const checked = typeCheck({
      'calls.ts': calls,
      // The types are the document's: a parameter it does not have, or a path it does not list, does not compile.
      'wrong-parameter.ts': calls.replace("path: { cp: '0981' }", "path: { code: '0981' }"),
      'wrong-path.ts': calls.replace("'/query/info_cp/{cp}', { params: { path: { cp: '0981' }", "'/query/info_cp_nowhere/{cp}', { params: { path: { cp: '0981' }"),
    });
    expect(checked['calls.ts']).toEqual([]);
    expect(checked['wrong-parameter.ts']!.length).toBeGreaterThan(0);
    expect(checked['wrong-path.ts']!.length).toBeGreaterThan(0);

    const compiled = join(dir, 'calls.mjs');
    writeFileSync(compiled, (await transform(calls, { loader: 'ts', format: 'esm' })).code);
    const { run } = (await import(compiled)) as { run: (create: typeof createFetchClient, baseUrl: string) => Promise<Record<string, unknown>> };
    const bodies = await run(createFetchClient, served.url);
    for (const method of methods) {
      const target = exampleTarget(method);
      expect(bodies[method], method).toEqual(library.query(`${target}${target.includes('?') ? '&' : '?'}token=demo`).body);
    }
    expect(bodies.error).toEqual([400, library.query('/query/info_cp/0981?token=demo').body]);
  });
});
