// An ES module app bundled with its artifact copied beside the bundle.
import { createClient, createFetchHandler } from 'cpmx';

const dataPath = new URL('./cpmx.msgpack', import.meta.url);
const client = createClient({ token: 'demo', dataPath });
const handle = createFetchHandler({ dataPath, prefix: '/cp' });
const response = await handle(new Request('http://app.test/cp/query/search_cp/0981?token=demo'));
console.log(JSON.stringify({ dataPath: client.dataPath, info: client.infoCp('09810', { type: 'simplified' }), lookup: client.searchCp('0981'), search: await response.json() }));
