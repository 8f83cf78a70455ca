/**
 * The MCP server of `cpmx mcp`: the tools of tools.ts offered over stdio through the official
 * MCP TypeScript SDK. The SDK is an optional peer dependency, needed by this command only: it
 * is loaded here at first use, never when cpmx is imported, and its absence is one clear error.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LineTransport } from './stdio.js';
import type { Tool } from './tools.js';

/** The SDK is not installed where cpmx can import it. */
export class McpSdkMissing extends Error {}

export const SDK_PACKAGE = '@modelcontextprotocol/sdk';

/** The SDK's modules this server uses, loaded together. */
async function loadSdk() {
  try {
    const [server, types] = await Promise.all([import('@modelcontextprotocol/sdk/server/index.js'), import('@modelcontextprotocol/sdk/types.js')]);
    return { Server: server.Server, ...types };
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && message.includes(SDK_PACKAGE)) {
      throw new McpSdkMissing(`cpmx mcp needs the MCP TypeScript SDK, which is not installed: run \`npm install ${SDK_PACKAGE}\` beside cpmx (globally too when cpmx is global)`);
    }
    throw new McpSdkMissing(`the MCP TypeScript SDK (${SDK_PACKAGE}) is installed but cannot be loaded: ${message.split('\n')[0]}`);
  }
}

const INSTRUCTIONS = `Mexican postal codes (códigos postales) and their settlements, municipalities and states, answered offline from the official SEPOMEX catalog with the COPOMEX API's JSON bodies and error codes. Use info_cp for a code's places, the get_* tools to list states, municipalities, settlements and codes, search_cp_advanced to find codes by place, validate to check an address record against its code, and parse to read a one-line address.`;

/**
 * Serves the tools `makeTools` gives (made once the SDK is found, so its absence is said
 * first) on stdin and stdout until the client closes stdin. Nothing else may write to stdout
 * meanwhile: it carries the protocol.
 */
export async function serveMcp(makeTools: () => readonly Tool[], version: string): Promise<void> {
  const sdk = await loadSdk();
  const tools = makeTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new sdk.Server({ name: 'cpmx', title: 'cpmx: Mexican postal codes offline', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema, annotations })),
  }));
  server.setRequestHandler(sdk.CallToolRequestSchema, (request) => {
    const tool = byName.get(request.params.name);
    // As the SDK's own McpServer answers a tool it does not have: a protocol error naming it.
    if (!tool) throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `Tool ${request.params.name} not found; cpmx has ${[...byName.keys()].join(', ')}`);
    try {
      // The answer's shape is MCP's CallToolResult (tools.ts declares it without the SDK's types).
      return tool.call(request.params.arguments ?? {}) as CallToolResult;
    } catch (error) {
      // The catalog is read already; what is left (a file replaced under a lazy load) is said, never a crash.
      return { content: [{ type: 'text' as const, text: `cpmx ${tool.name}: ${error instanceof Error ? error.message : String(error)}` }], isError: true };
    }
  });

  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  // The stdio transport does not end on its own when stdin does: the client closing it ends the session.
  const end = () => void server.close();
  process.stdin.once('end', end);
  process.stdin.once('close', end);
  // cpmx's own stdio transport (stdio.ts): messages bounded, read in linear time, one 'drain' listener.
  const transport = new LineTransport({
    parse: (line) => sdk.JSONRPCMessageSchema.parse(JSON.parse(line)),
    say: (line) => process.stderr.write(`cpmx mcp: ${line}\n`),
  });
  await server.connect(transport);
  await closed;
  process.stdin.off('end', end);
  process.stdin.off('close', end);
}
