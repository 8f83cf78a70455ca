/** `cpmx query`: request paths answered exactly as the HTTP API answers them, one or a stream. */
import { isSuccess, type Body, type ServerErrorEnvelope } from '../../core/contract.js';
import { parseRequestPath } from '../../core/request.js';
import { answerer } from '../../client/answerer.js';
import { envelopeOf, MAX_URL_LENGTH, SERVER_ANSWERS } from '../../wire/status.js';
import { EXIT, HELP_OPTION, command, onePositional, print } from '../command.js';
import { DATA_HELP, TOKEN_HELP, dataOption, tokenOption } from '../environment.js';
import { afterQuery } from '../hints.js';

export const queryCommand = command({
  name: 'query',
  synopsis: '[path]',
  summary: 'answer a request path, or a stream of them from stdin',
  description: `Answers a request path exactly as the HTTP API would, for example
  cpmx query '/query/info_cp/09810?token=demo&type=simplified'
A full URL is accepted too; its host is ignored. When the path carries no token, --token or
CPMX_TOKEN is used; with none, the path answers 106 as it does over HTTP (the lookup commands,
cpmx info_cp and the others, need no token).

With no path, reads paths from stdin, one a line, and writes one compact JSON body a line, in
the same order, as each arrives; a bad line gets its error envelope and the stream goes on.
A path longer than the server serves (${MAX_URL_LENGTH} characters) gets the server's 414
envelope, "${SERVER_ANSWERS.urlTooLong.message}".`,
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
      const refused = tooLong(path);
      if (refused) {
        print(refused);
        return EXIT.failed;
      }
      const body = respond(path);
      print(body);
      afterQuery(body);
      return isSuccess(body) ? EXIT.ok : EXIT.failed;
    }
    if (process.stdin.isTTY) process.stderr.write('cpmx query: reading request paths from stdin, one a line (Ctrl-D ends)\n');
    await answerStream(respond);
    return EXIT.ok;
  },
});

/** A path longer than the server serves gets the server's 414, here as there (one answer, status.ts). */
const TOO_LONG = envelopeOf(SERVER_ANSWERS.urlTooLong);
const tooLong = (path: string): ServerErrorEnvelope | undefined => (path.length > MAX_URL_LENGTH ? TOO_LONG : undefined);

/**
 * Answers each complete line as its chunk arrives, one write per chunk, in order. Linear in
 * the input: each chunk is looked at once, and a line past the bound is not kept, only
 * answered 414 once it ends.
 */
async function answerStream(respond: (line: string) => Body): Promise<void> {
  let parts: string[] = [];
  let length = 0;
  const answers: string[] = [];
  const take = (piece: string) => {
    length += piece.length;
    // Kept only while it may still be a path to answer (one more for a CR before the LF).
    if (length <= MAX_URL_LENGTH + 1) parts.push(piece);
    else parts = [];
  };
  const end = () => {
    let line = length <= MAX_URL_LENGTH + 1 ? parts.join('') : undefined;
    if (line?.endsWith('\r')) line = line.slice(0, -1);
    answers.push(JSON.stringify(line === undefined ? TOO_LONG : (tooLong(line) ?? respond(line))));
    parts = [];
    length = 0;
  };
  const write = () => {
    const out = answers.splice(0).join('\n');
    if (process.stdout.write(`${out}\n`)) return undefined;
    return new Promise<void>((done) => process.stdout.once('drain', done));
  };
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin as AsyncIterable<string>) {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline >= 0; newline = chunk.indexOf('\n', start)) {
      take(chunk.slice(start, newline));
      end();
      start = newline + 1;
    }
    if (start < chunk.length) take(chunk.slice(start));
    if (answers.length) await write();
  }
  if (length) {
    end();
    await write();
  }
}
