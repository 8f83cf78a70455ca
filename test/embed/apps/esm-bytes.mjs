// An ES module app whose bundle carries the artifact's bytes (esbuild's binary loader).
import artifact from 'cpmx/data/cpmx.msgpack';
import { createClient, createFetchHandler } from 'cpmx';

const client = createClient({ token: 'demo', data: artifact });
const response = await createFetchHandler({ data: artifact })(new Request('http://app.test/query/search_cp/0981?token=demo'));
console.log(JSON.stringify({ dataPath: client.dataPath, info: client.infoCp('09810', { type: 'simplified' }), lookup: client.searchCp('0981'), search: await response.json() }));
