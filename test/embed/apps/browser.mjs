// A web page's script: fetches the artifact, then answers in the page, with the client and
// with the fetch handler, as a browser app or a service worker would.
import { createClient, createFetchHandler } from 'cpmx';

try {
  const data = await (await fetch('/cpmx.msgpack')).arrayBuffer();
  const client = createClient({ token: 'demo', data });
  const handler = createFetchHandler({ data, prefix: '/api' });
  const response = await handler(new Request(new URL('/api/query/search_cp/0981?token=demo', location.href)));
  // The OpenAPI document's builder is a chunk of its own, fetched now.
  const openapi = await handler(new Request(new URL('/api/openapi.json', location.href)));
  window.answers = {
    info: client.infoCp('09810', { type: 'simplified' }),
    full: client.infoCp('09810'),
    search: client.searchCp('0981'),
    handled: { status: response.status, etag: response.headers.get('etag'), body: await response.json() },
    openapi: { status: openapi.status, body: await openapi.json() },
  };
} catch (error) {
  window.answers = { error: String(error && error.stack ? error.stack : error) };
}
