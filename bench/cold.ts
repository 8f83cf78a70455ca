/**
 * One cold start, in its own process: import the contestant, open its data, answer one
 * query. Prints one JSON line.
 *   node dist/bench/cold.js <contestant|none|cpmx-compiled|cpmx-bytes> <work> <cp>
 *
 * cpmx: what a user writes (import the package by its name, createClient, one infoCp), with
 * no module of the bench's in between (the other contestants go through their
 * bench/contestants module; that module cost cpmx about 0.3 ms).
 *
 * cpmx-compiled: the same as cpmx, with its shipped bytecode turned off (NODE_DISABLE_COMPILE_CACHE=1,
 * src/node-entry.ts): the cold start of a Node other than the one the package was compiled by,
 * which compiles the library from its source.
 *
 * cpmx-bytes: the app reads the artifact itself and gives cpmx its bytes (createClient({ data })),
 * as it does where cpmx cannot read files.
 *
 * sqlite-least: the least a SQLite user does for one answer: require better-sqlite3, open the
 * database read-only, prepare one statement, run it once (rows, not a COPOMEX envelope). The
 * sqlite contestant does more: it prepares every method's statements and builds the envelope.
 *
 * Not run with --expose-gc: that flag alone costs several milliseconds of start-up (Node can
 * no longer use the code cache of its own modules), which a user's process does not pay. The
 * collector is exposed only after the timed part, to read the heap after a collection.
 */
import { dataPaths, type ContestantModule } from './contestants/types.js';

const started = performance.now();
const [name, work, cp] = process.argv.slice(2) as [string, string, string];
const paths = dataPaths(work);
let ok = true;
/** When the module was imported and the data opened: the steps of the time to the first answer. */
let imported = started;
let opened = started;
if (name === 'cpmx' || name === 'cpmx-compiled') {
  if (name === 'cpmx-compiled') process.env.NODE_DISABLE_COMPILE_CACHE = '1';
  // What a user writes: the package imported by its name, a client, one answer (no module of
  // the bench's in between, as for the SQLite least; the bytes path below is the same).
  const { createClient } = await import('cpmx');
  imported = performance.now();
  const client = createClient({ token: 'bench', dataPath: paths.artifact });
  opened = performance.now();
  ok = client.infoCp(cp, { type: 'simplified' }).error === false;
} else if (name === 'cpmx-bytes') {
  const [{ readFileSync }, { createClient }] = await Promise.all([import('node:fs'), import('cpmx')]);
  imported = performance.now();
  const client = createClient({ token: 'bench', data: readFileSync(paths.artifact) });
  opened = performance.now();
  const answer = client.infoCp(cp, { type: 'simplified' });
  ok = answer.error === false;
} else if (name === 'sqlite-least') {
  const { createRequire } = await import('node:module');
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
  imported = performance.now();
  const db = new Database(paths.sqlite, { readonly: true });
  const statement = db.prepare('SELECT d_asenta, d_tipo_asenta, d_mnpio, d_estado, d_ciudad FROM settlements WHERE d_codigo = ?');
  opened = performance.now();
  const rows = statement.all(cp);
  ok = rows.length > 0;
} else if (name !== 'none') {
  const contestant = (await import(`./contestants/${name}.js`)) as ContestantModule;
  imported = performance.now();
  const lookups = contestant.open(paths);
  opened = performance.now();
  const answer = lookups.infoCp(cp, true) as { error?: boolean };
  ok = answer.error === false;
}
const answered = performance.now();
const { setFlagsFromString } = await import('node:v8');
const { runInNewContext } = await import('node:vm');
setFlagsFromString('--expose-gc');
(runInNewContext('gc') as () => void)();
const memory = process.memoryUsage();
process.stdout.write(
  `${JSON.stringify({ name, ok, importToAnswerMs: answered - started, importMs: imported - started, openMs: opened - imported, answerMs: answered - opened, sinceProcessStartMs: answered, heapUsed: memory.heapUsed, rss: memory.rss })}\n`,
);
