/**
 * `cpmx mcp`'s stdio transport in one process, on real streams (issue 37, item 8): the id of a
 * message read from its bytes as they pass, a message over the bound answered under its id
 * and the session going on, and one 'drain' listener however many answers wait for a reader
 * that does not read. The process as a client runs it is in mcp.test.ts.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MessageIdReader } from '../../src/mcp/message-id.js';
import { LineTransport, MAX_MESSAGE_BYTES } from '../../src/mcp/stdio.js';

/** The id read from `text` fed in pieces of `size` bytes. */
function idOf(text: string, size: number): string | number | null {
  const reader = new MessageIdReader();
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) reader.feed(bytes.subarray(at, at + size));
  return reader.id;
}

describe('the id of a message, read as its bytes pass', () => {
  const cases: [string, string | number | null][] = [
    ['{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"b"}}', 7],
    // After its params, and not taken from a key or a string inside them.
    ['{"jsonrpc":"2.0","method":"x","params":{"id":3,"s":"\\"id\\":9"},"id":"abc"}', 'abc'],
    ['{"params":["id",{"id":2}],"id":"é\\u0041"}', 'éA'],
    ['{ "id" : -12.5 }', -12.5],
    ['{"id":12}', 12],
    // None that can be read: null, an object, missing, not an object, cut short.
    ['{"id":null}', null],
    ['{"id":{"x":1}}', null],
    ['{"method":"notifications/initialized"}', null],
    ['garbage{', null],
    ['[{"id":1}]', null],
    ['{"id":"x', null],
    [`{"id":"${'x'.repeat(2000)}"}`, null],
  ];
  it.each(cases)('%s', (text, id) => {
    for (const size of [1, 3, 1 << 20]) expect(idOf(text, size), `in pieces of ${size}`).toEqual(id);
  });
});

/** A transport on fresh streams, with what it says and answers recorded. */
function transportOn(stdout: Writable = new PassThrough(), maxMessageBytes?: number) {
  const stdin = new PassThrough();
  const said: string[] = [];
  const messages: unknown[] = [];
  const errors: Error[] = [];
  const transport = new LineTransport({ stdin, stdout, parse: (line) => JSON.parse(line), say: (line) => said.push(line), maxMessageBytes });
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error);
  return { stdin, stdout, transport, said, messages, errors };
}

describe('the stdio transport', () => {
  it('bounds each message at 4 MiB: one over it is answered under its id, said on stderr, and the next is read', async () => {
    expect(MAX_MESSAGE_BYTES).toBe(4 * 1024 * 1024);
    const stdout = new PassThrough();
    const { stdin, transport, said, messages } = transportOn(stdout, 1000);
    await transport.start();
    const answers: string[] = [];
    stdout.on('data', (chunk: Buffer) => answers.push(...chunk.toString().trimEnd().split('\n')));
    const big = JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { text: 'x'.repeat(5000) }, id: 9 });
    // In pieces smaller and larger than the bound, the id after the params.
    stdin.write(big.slice(0, 400));
    stdin.write(big.slice(400, 3000));
    stdin.write(`${big.slice(3000)}\n{"jsonrpc":"2.0","id":10,"method":"ping"}\n`);
    stdin.write(`${'y'.repeat(1500)}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 10, method: 'ping' }]);
    expect(answers.map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', id: 9, error: { code: -32600, message: `Invalid request: the message has ${big.length} bytes, more than the limit of 1000 bytes (0.00 MiB)` } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the message is larger than 1000 bytes (0.00 MiB) and was not read' } },
    ]);
    expect(said).toEqual([
      `a message of ${big.length} bytes was refused (id 9): the limit is 1000 bytes (0.00 MiB); the session goes on`,
      'a message of 1500 bytes was refused (its id could not be read): the limit is 1000 bytes (0.00 MiB); the session goes on',
    ]);
    await transport.close();
  });

  it('waits for a reader that does not read with one drain listener, and sends everything once it reads', async () => {
    const held: (() => void)[] = [];
    const written: string[] = [];
    // A reader that takes nothing until it is let go.
    const stdout = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk.toString());
        held.push(done);
      },
    });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const { transport } = transportOn(stdout);
      await transport.start();
      const sent = Array.from({ length: 50 }, (_, i) => transport.send({ jsonrpc: '2.0', id: i, result: { text: 'z'.repeat(100) } }));
      expect(stdout.listenerCount('drain')).toBe(1);
      while (held.length > 0) held.shift()!();
      await Promise.all(sent);
      expect(written.map((line) => JSON.parse(line).id)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      expect(stdout.listenerCount('drain')).toBe(0);
      await transport.close();
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});
