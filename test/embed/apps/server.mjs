// A server that uses the package's own artifact, as deployed after a file trace.
import { createClient, createFetchHandler } from 'cpmx';

const client = createClient({ token: 'demo' });
const response = await createFetchHandler()(new Request('http://app.test/query/search_cp/0981?token=demo'));
console.log(JSON.stringify({ dataPath: client.dataPath, info: client.infoCp('09810', { type: 'simplified' }), lookup: client.searchCp('0981'), search: await response.json() }));
