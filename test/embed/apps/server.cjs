// The same server in CommonJS.
const { createClient, createFetchHandler } = require('cpmx');

const client = createClient({ token: 'demo' });
Promise.resolve(createFetchHandler()(new Request('http://app.test/query/search_cp/0981?token=demo')))
  .then((response) => response.json())
  .then((search) => console.log(JSON.stringify({ dataPath: client.dataPath, info: client.infoCp('09810', { type: 'simplified' }), lookup: client.searchCp('0981'), search })));
