// `cpmx mcp` on each Node tested, the SDK installed beside cpmx as a user installs it, spoken
// to by the SDK's own client.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const cli = join(dirname(createRequire(import.meta.url).resolve('cpmx/package.json')), 'dist', 'cli.cjs');

describe('cpmx mcp', () => {
  it('serves the lookups, validate and parse to the SDK client, and ends when it closes', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--token', 'demo'], env: { ...process.env } });
    const client = new Client({ name: 'node-versions', version: '1.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      for (const name of ['info_cp', 'search_cp', 'validate', 'parse']) assert.ok(names.includes(name), name);
      const answer = await client.callTool({ name: 'info_cp', arguments: { cp: '09810', type: 'simplified' } });
      assert.equal(JSON.parse(answer.content[0].text).response.municipio, 'Iztapalapa');
      const parsed = await client.callTool({ name: 'parse', arguments: { address: 'Granjas Esmeralda, Iztapalapa, 09810 CDMX' } });
      assert.equal(parsed.structuredContent.valid, true);
    } finally {
      await client.close();
    }
  });
});
