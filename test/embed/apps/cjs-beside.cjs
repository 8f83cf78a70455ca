// A CommonJS app bundled with its artifact copied beside the bundle.
const { join } = require('node:path');
const { createClient, createFetchHandler } = require('cpmx');

const dataPath = join(__dirname, 'cpmx.msgpack');
const client = createClient({ token: 'demo', dataPath });
Promise.resolve(createFetchHandler({ dataPath })(new Request('http://app.test/query/search_cp/0981?token=demo')))
  .then((response) => response.json())
  .then((search) => console.log(JSON.stringify({ dataPath: client.dataPath, info: client.infoCp('09810', { type: 'simplified' }), lookup: client.searchCp('0981'), search })));
