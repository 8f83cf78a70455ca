/**
 * A password from the person at the terminal, without echo, asked twice; or, when standard
 * input is a pipe or a file, its first line. Never from the arguments.
 */
import { UsageError } from './command.js';

/** Reads a password: prompted twice (no echo) on a terminal, else the first line of standard input. */
export async function readPassword(prompt: string): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) return firstLine();
  const first = await quietly(prompt);
  const again = await quietly('Again, to be sure: ');
  if (first !== again) throw new UsageError('the two passwords differ; nothing was changed');
  return first;
}

function firstLine(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    const done = () => {
      process.stdin.pause();
      const newline = text.search(/\r?\n/);
      resolve(newline < 0 ? text : text.slice(0, newline));
    };
    process.stdin.on('data', (chunk: string) => {
      text += chunk;
      if (/\n/.test(text) || text.length > 4096) {
        process.stdin.removeAllListeners('data');
        done();
      }
    });
    process.stdin.once('end', done);
    process.stdin.once('error', reject);
  });
}

/** One line typed at the terminal with echo off: raw mode, the keys handled here. */
function quietly(prompt: string): Promise<string> {
  const input = process.stdin;
  // Echo off before the prompt shows: keys typed as soon as it appears are not echoed either.
  input.setRawMode(true);
  process.stderr.write(prompt);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      input.removeListener('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const key of chunk) {
        if (key === '\r' || key === '\n') return finish();
        if (key === '\u0003') return finish(new UsageError('interrupted; nothing was changed'));
        if (key === '\u0004') return finish(typed === '' ? new UsageError('no password given; nothing was changed') : undefined);
        if (key === '\u007f' || key === '\b') typed = [...typed].slice(0, -1).join('');
        else if (key >= ' ') typed += key;
      }
    };
    input.on('data', onData);
  });
}
