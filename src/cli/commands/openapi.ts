/** `cpmx openapi`: the OpenAPI 3.1 document of the HTTP API, as `GET /openapi.json` serves it. */
import { OPENAPI_PATH, openApiDocument } from '../../http/openapi.js';
import { VERSION } from '../../version.js';
import { EXIT, HELP_OPTION, UsageError, command } from '../command.js';

export const openapiCommand = command({
  name: 'openapi',
  synopsis: '',
  usageOptions: '[--server URL]',
  summary: 'print the OpenAPI 3.1 document of the HTTP API (for client generators)',
  description: `Prints the OpenAPI 3.1 document of the HTTP API (cpmx serve, createMiddleware,
createFetchHandler), indented: every method of the contract with its path segment and query
parameters, the token (query or Bearer), the success body of each and every error it can
answer (101-117) with its HTTP status. A running server serves the same document at
${OPENAPI_PATH} (no token, no credit). Made from the method table, so it describes exactly
what this cpmx answers.

Feed it to a client generator, e.g.:
  cpmx openapi --server http://localhost:8080 > cpmx.openapi.json
  npx openapi-typescript cpmx.openapi.json -o cpmx-api.d.ts`,
  exit: 'Exit status: 0, or 2 on a usage error.',
  options: {
    server: { type: 'string', value: 'URL', help: "the API's base URL, written as the document's server (none: where it is served from)" },
    ...HELP_OPTION,
  },
  run({ values, positionals }) {
    if (positionals.length) throw new UsageError(`cpmx openapi takes no argument, got: ${positionals.join(' ')}`);
    const server = values.server;
    if (server !== undefined && !URL.canParse(server)) throw new UsageError(`cpmx openapi: --server must be a URL (http://host:port/prefix), got: ${server}`);
    process.stdout.write(`${JSON.stringify(openApiDocument({ version: VERSION, server }), null, 2)}\n`);
    return EXIT.ok;
  },
});
