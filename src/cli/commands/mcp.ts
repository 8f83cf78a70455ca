/** `cpmx mcp`: the lookups, validation and address reading as tools of an MCP server on stdio. */
import { packageVersion } from '../../paths.js';
import { HELP_OPTION, UsageError, command, noPositionals } from '../command.js';
import { lookupRows } from '../../mcp/rows.js';
import { DATA_HELP, dataOption, tokenOption } from '../environment.js';

/** `words` joined by ", " in lines of at most `width` characters, each indented by `indent`. */
function wrapped(words: readonly string[], indent: string, width = 92): string {
  const lines: string[] = [];
  let line = '';
  for (const [i, word] of words.entries()) {
    const piece = i < words.length - 1 ? `${word},` : word;
    if (line && indent.length + line.length + 1 + piece.length > width) {
      lines.push(line);
      line = piece;
    } else line = line ? `${line} ${piece}` : piece;
  }
  lines.push(line);
  return lines.map((text) => `${indent}${text}`).join('\n');
}

/** The token of the tools when none is given: any token answers locally. */
const LOCAL_TOKEN = 'cpmx-mcp';

export const mcpCommand = command({
  name: 'mcp',
  synopsis: '',
  usageOptions: '[--data FILE] [--token T]',
  summary: 'serve the lookups, validate and parse as MCP tools (stdio)',
  description: `Runs a Model Context Protocol server on stdin and stdout, for AI agents and MCP clients
(Claude Desktop, Claude Code, Cursor, VS Code, MCP Inspector), answering offline from the
catalog. Its tools:
  one per lookup of the COPOMEX API, answering the API's JSON body (an error envelope,
  101-117, is a tool error), its arguments named as the API's (cp, estado, municipio, ...):
${wrapped(
  lookupRows().map((row) => row.method),
  '    ',
)};
  validate: an address record {cp, estado, municipio, asentamiento, ciudad} checked as
  cpmx validate checks one; parse: a one-line address read as cpmx parse reads one.
The server runs until the client closes its stdin. Messages go to stderr, never stdout.

It needs the MCP TypeScript SDK, an optional dependency of cpmx: npm install
@modelcontextprotocol/sdk beside cpmx (without it, this command says so and exits 2).

To register it in Claude Desktop (claude_desktop_config.json) or another MCP client's
configuration ("mcpServers"), with cpmx and the SDK installed in a project:
  { "mcpServers": { "cpmx": { "command": "npx", "args": ["cpmx", "mcp"] } } }
(cpmx is not on the npm registry: install it from the tarball \`npm run tarball\` makes, never by
name with npx -y, which would fetch a stranger's package.)
Claude Code: claude mcp add cpmx -- npx cpmx mcp
Add "--data", "/path/to/cpmx.msgpack" to the arguments (or "env": {"CPMX_DATA": ...}) to
answer from another artifact.`,
  exit: 'Exit status: 0 when the client closes the session, 2 when the catalog cannot be loaded or the SDK is not installed.',
  options: {
    token: { type: 'string', value: 'T', help: 'the token of every call (default: CPMX_TOKEN, else a local one; "pruebas" is test mode)' },
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    noPositionals(positionals, 'mcp', 'An MCP client starts "cpmx mcp" and speaks to it on stdin and stdout; see cpmx mcp --help.');
    const { McpSdkMissing, serveMcp } = await import('../../mcp/server.js');
    const { mcpTools } = await import('../../mcp/tools.js');
    const options = { dataPath: dataOption(values.data), token: tokenOption(values.token) || LOCAL_TOKEN };
    try {
      // The catalog is loaded before anything is served: a missing one is said at once (exit 2).
      await serveMcp(() => mcpTools(options), packageVersion());
    } catch (error) {
      if (error instanceof McpSdkMissing) throw new UsageError(error.message);
      throw error;
    }
    return 0;
  },
});
