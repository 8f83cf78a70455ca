// A CommonJS app that reads the artifact itself and hands cpmx the bytes.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { createClient, createFetchHandler } = require('cpmx');

const data = readFileSync(join(__dirname, 'cpmx.msgpack'));
const client = createClient({ token: 'demo', data });
Promise.resolve(createFetchHandler({ data })(new Request('http://app.test/query/search_cp/0981?token=demo')))
  .then((response) => response.json())
  .then((search) => console.log(JSON.stringify({ dataPath: client.dataPath, info: client.infoCp('09810', { type: 'simplified' }), lookup: client.searchCp('0981'), search })));
