// The ES module entries on each Node tested: lookups, the fetch handler, the middleware and validation.
import assert from 'node:assert/strict';
import { createServer, get } from 'node:http';
import { describe, it } from 'node:test';
import { createClient, createFetchHandler, createMiddleware, isSuccess } from 'cpmx';
import { validateAddress, validateStream } from 'cpmx/validate';

describe('import cpmx', () => {
  it('answers lookups from the artifact', () => {
    const client = createClient({ token: 'demo' });
    const body = client.infoCp('09810', { type: 'simplified' });
    assert.ok(isSuccess(body));
    assert.equal(body.response.municipio, 'Iztapalapa');
    assert.deepEqual(client.searchCp('0981').response.cp, ['09810', '09819']);
    assert.equal(client.getEstados().response.estado.length, 32);
  });

  it('answers requests with the fetch handler', async () => {
    const response = await createFetchHandler({ prefix: '/cp' })(new Request('http://app.test/cp/query/search_cp/0981?token=demo'));
    assert.equal(response.status, 200);
    assert.match(response.headers.get('etag'), /^".+"$/);
    assert.deepEqual((await response.json()).response.cp, ['09810', '09819']);
  });

  it('answers over HTTP with the middleware', async () => {
    const server = createServer(createMiddleware());
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { status, body } = await new Promise((resolve, reject) => {
        get(`http://127.0.0.1:${server.address().port}/query/info_cp/09810?token=demo&type=simplified`, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
        }).on('error', reject);
      });
      assert.equal(status, 200);
      assert.equal(body.response.cp, '09810');
    } finally {
      server.close();
    }
  });

  it('validates addresses with cpmx/validate, one by one and as a stream', async () => {
    const client = createClient({ token: 'demo' });
    assert.deepEqual(validateAddress(client, { cp: '1000' }).suggestions, { cp: '01000' });
    const results = [];
    for await (const line of validateStream(client, [{ cp: '09810', estado: 'Ciudad de México' }, { cp: '1000' }])) results.push(line.valid);
    assert.deepEqual(results, [true, false]);
  });
});
