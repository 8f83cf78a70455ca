/** `cpmx query`: request paths answered exactly as the HTTP API answers them, one or a stream. */
import { isSuccess, type Body } from '../../core/contract.js';
import { parseRequestPath } from '../../core/request.js';
import { answerer } from '../answer.js';
import { EXIT, HELP_OPTION, command, onePositional, print } from '../command.js';
import { DATA_HELP, TOKEN_HELP, dataOption, tokenOption } from '../environment.js';

export const queryCommand = command({
  name: 'query',
  synopsis: '[path]',
  summary: 'answer a request path, or a stream of them from stdin',
  description: `Answers a request path exactly as the HTTP API would, for example
  cpmx query '/query/info_cp/09810?token=demo&type=simplified'
A full URL is accepted too; its host is ignored. When the path carries no token, --token or
CPMX_TOKEN is used.

With no path, reads paths from stdin, one a line, and writes one compact JSON body a line, in
the same order, as each arrives; a bad line gets its error envelope and the stream goes on.`,
  exit: `Exit status: with a path, 0 on a success and 1 on an error envelope; for a stream, 0 once
every line is answered. 2 on a usage error or when the catalog cannot be loaded.`,
  options: {
    token: { type: 'string', value: 'T', help: TOKEN_HELP },
    data: { type: 'string', value: 'FILE', help: DATA_HELP },
    ...HELP_OPTION,
  },
  async run({ values, positionals }) {
    const path = onePositional(positionals, 'query', 'path');
    const answer = answerer(dataOption(values.data), tokenOption(values.token), false);
    const respond = (line: string): Body => answer(parseRequestPath(line));
    if (path !== undefined) {
      const body = respond(path);
      print(body);
      return isSuccess(body) ? EXIT.ok : EXIT.failed;
    }
    if (process.stdin.isTTY) process.stderr.write('cpmx query: reading request paths from stdin, one a line (Ctrl-D ends)\n');
    await answerStream(respond);
    return EXIT.ok;
  },
});

/** Answers each complete line as its chunk arrives, one write per chunk, in order. */
async function answerStream(respond: (line: string) => Body): Promise<void> {
  let pending = '';
  const write = (lines: string[]) => {
    const out = lines.map((line) => JSON.stringify(respond(line.endsWith('\r') ? line.slice(0, -1) : line))).join('\n');
    if (process.stdout.write(`${out}\n`)) return undefined;
    return new Promise<void>((done) => process.stdout.once('drain', done));
  };
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin as AsyncIterable<string>) {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    if (lines.length) await write(lines);
  }
  if (pending) await write([pending]);
}
