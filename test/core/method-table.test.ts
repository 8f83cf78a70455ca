/**
 * The method table (src/core/methods.ts) is what every adapter answers: each row's example
 * request, on the fixture catalog, is answered with data (never 111 or 113) by the library's
 * `query` and its typed method, the command line's command, every door of test/support/doors.ts
 * (`cpmx serve` over real HTTP, `cpmx query`, the middleware, the fetch handler), and the web
 * client over an exported tree, all with the same body; and in test mode too. A row
 * whose adapter forgot it fails here by name.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { staticServer } from '../../bench/static-server.js';
import { METHOD_TEXTS, argumentsSchema, exampleTarget } from '../../src/core/method-texts.js';
import { namedRequest } from '../../src/core/methods.js';
import { parseRequestPath } from '../../src/core/request.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createClient, isSuccess, type Body, type CpmxClient } from '../../src/index.js';
import { CLI, FIXTURE, buildInto, root, tempDir } from '../helpers.js';
import { listen } from '../support/http.js';
import { describeDoors } from '../support/doors.js';
import { exampleArgs, methods, rowOf, withToken } from '../support/method-examples.js';
import { exportWeb } from '../support/web.js';
import { buildGeoBeside } from '../support/geo.js';

const dir = tempDir();
let dataPath: string;
let client: CpmxClient;
let web: ReturnType<(typeof import('../../src/web/index.js'))['createWebClient']>;

/** Rows the web client answers 113 (docs/geo.md says why). */
const WEB_UNANSWERED: ReadonlySet<string> = new Set(['info_cp_geocoding_reverse']);

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
  // The geocoding rows answer from geodata beside the artifact (docs/geo.md).
  buildGeoBeside(dataPath);
  client = createClient({ token: 'demo', dataPath });
  const tree = join(dir, 'tree');
  expect(exportWeb(dataPath, tree).status).toBe(0);
  const site = (await listen(staticServer({ '/tree/': tree }))).url;
  const { createWebClient } = (await import(join(root, 'dist', 'web.js'))) as typeof import('../../src/web/index.js');
  web = createWebClient({ base: `${site}/tree/`, token: 'demo' });
});

describe('every row of the method table', () => {
  it('has a name the path parser reads back, and texts', () => {
    expect(methods.length).toBeGreaterThanOrEqual(16);
    for (const method of methods) {
      expect(exampleTarget(method).startsWith(`/query/${method}`), method).toBe(true);
      expect(METHOD_TEXTS[method].summary.length, method).toBeGreaterThan(5);
    }
  });

  it('is the same request from named arguments (MCP) as from its path, and its arguments schema takes them', () => {
    const ajv = new Ajv2020({ strict: true });
    for (const method of methods) {
      const { example } = METHOD_TEXTS[method];
      expect(namedRequest(method, example, 'demo'), method).toEqual(parseRequestPath(withToken(method, 'demo')));
      const valid = ajv.compile(argumentsSchema(method));
      // The schema's `limit` is a number, as a tool's caller gives it.
      const args = Object.fromEntries(Object.entries(example).map(([name, value]) => [name, ['limit', 'lat', 'lng'].includes(name) ? Number(value) : value]));
      expect(valid(args), `${method}: ${JSON.stringify(valid.errors)}`).toBe(true);
      expect(valid({ ...args, nonsense: '1' }), method).toBe(false);
    }
  });

  it('is answered with data by the library, with a token and in test mode', () => {
    for (const method of methods) {
      const real = client.query(withToken(method, 'demo'));
      expect(real.status, method).toBe(200);
      expect(isSuccess(real.body), method).toBe(true);
      const test = client.query(withToken(method, 'pruebas'));
      expect(test.status, method).toBe(200);
      expect(isSuccess(test.body), method).toBe(true);
    }
  });

  it('has its typed method on the library client answering as `query`, unless it is another’s older name', () => {
    const named = methods.filter((method) => rowOf(method).client);
    // Only get_cp_advanced (search_cp_advanced's older name) has none.
    expect(methods.filter((method) => !rowOf(method).client)).toEqual(['get_cp_advanced']);
    for (const method of named) {
      const typed = (client as unknown as Record<string, (...args: unknown[]) => Body>)[rowOf(method).client!]!(...exampleArgs(method));
      expect(typed, method).toEqual(client.query(withToken(method, 'demo')).body);
    }
  });

  it('is a command of the command line printing the library’s body', () => {
    for (const method of methods) {
      const { segment, parameters } = rowOf(method);
      const { example } = METHOD_TEXTS[method];
      const args = [CLI, method, ...(segment ? [example[segment]!] : [])];
      // `--name=value`: a value may be a negative number (a longitude), which a separate argument would not be taken as.
      for (const parameter of parameters) if (example[parameter] !== undefined) args.push(`--${parameter}=${example[parameter]!}`);
      const run = spawnSync(process.execPath, [...args, '--token', 'demo', '--data', dataPath], { encoding: 'utf8' });
      expect(run.stderr, method).toBe('');
      expect(run.status, method).toBe(0);
      expect(JSON.parse(run.stdout), method).toEqual(client.query(withToken(method, 'demo')).body);
    }
  });

  it('is answered by the web client over an exported tree with the library’s body', async () => {
    for (const method of methods) {
      const name = rowOf(method).client;
      if (!name) continue;
      if (WEB_UNANSWERED.has(method)) {
        // Reverse geocoding needs the polygons, which a tree does not carry: 113, as documented.
        const body = await (web as unknown as Record<string, (...args: unknown[]) => Promise<Body>>)[name]!(...exampleArgs(method));
        expect(body, method).toMatchObject({ error: true, code_error: 113 });
        continue;
      }
      const body = await (web as unknown as Record<string, (...args: unknown[]) => Promise<Body>>)[name]!(...exampleArgs(method));
      expect(JSON.stringify(body), method).toBe(JSON.stringify(client.query(withToken(method, 'demo')).body));
    }
  });
});

// `cpmx serve` over HTTP, `cpmx query`, the middleware and the fetch handler (test/support/doors.ts).
describeDoors(
  'every row of the method table',
  () => ({ dataPath }),
  (door) => {
    it('is answered with the library’s status and body', async () => {
      const paths = methods.map((method) => withToken(method, 'demo'));
      const answers = await door().ask(paths);
      for (const [i, method] of methods.entries()) {
        if (answers[i]!.status !== undefined) expect(answers[i]!.status, method).toBe(200);
        expect(JSON.parse(answers[i]!.body), method).toEqual(client.query(paths[i]!).body);
      }
    });
  },
  ['cpmx serve', 'cpmx query', 'middleware', 'fetch handler'],
);
