// An app written with `import`, whatever its bundler makes of it (an ES module, CommonJS): the
// artifact given as bytes always answers; the package's own is either found or an ArtifactError
// says what to do. Loading the bundle must not throw. argv[2]: the artifact's path. No top-level
// await, which CommonJS output cannot hold.
import { readFileSync } from 'node:fs';
import { ArtifactError, createClient, createFetchHandler } from 'cpmx';

function own() {
  try {
    const mine = createClient({ token: 'demo' });
    return { dataPath: mine.dataPath, info: mine.infoCp('09810', { type: 'simplified' }) };
  } catch (error) {
    if (!(error instanceof ArtifactError)) throw error;
    return { error: error.message };
  }
}

const data = readFileSync(process.argv[2]);
const client = createClient({ token: 'demo', data });
Promise.resolve(createFetchHandler({ data })(new Request('http://app.test/query/search_cp/0981?token=demo')))
  .then((response) => response.json())
  .then((search) => console.log(JSON.stringify({ dataPath: client.dataPath, info: client.infoCp('09810', { type: 'simplified' }), lookup: client.searchCp('0981'), search, own: own() })));
