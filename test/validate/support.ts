/** What the validation tests share: running `cpmx validate` in a child process, and its results. */
import { spawn, spawnSync } from 'node:child_process';
import { ERRORS } from '../../src/index.js';
import { VALIDATION_ERRORS, type LineResult } from '../../src/validate/index.js';
import { CLI } from '../helpers.js';

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  lines: LineResult[];
}

/** `cpmx validate --data DATA ARGS` with `input` on stdin (bytes or text). */
export function validate(data: string, args: string[], input: string | Uint8Array = ''): Run {
  const result = spawnSync(process.execPath, [CLI, 'validate', '--data', data, ...args], { input, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  const lines = result.stdout.startsWith('{') ? result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as LineResult) : [];
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, lines };
}

/**
 * `cpmx validate` in a child whose peak RSS (the whole process: every thread) is measured by
 * the child itself, as it exits; `nodeFlags` go to that child's Node.
 */
export function validateMeasured(data: string, args: string[], nodeFlags: string[] = []): Promise<Run & { maxRssBytes: number }> {
  const argv = [CLI, 'validate', '--data', data, ...args];
  const script = `process.on('exit', () => process.stderr.write('\\nmaxRSS ' + process.resourceUsage().maxRSS * 1024 + '\\n')); process.argv = [process.argv[0], ...${JSON.stringify(argv)}]; await import(${JSON.stringify(CLI)});`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, '--input-type=module', '-e', script, '--'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => {
      const measured = /\nmaxRSS (\d+)\n$/.exec(stderr);
      if (!measured) return reject(new Error(`no peak RSS from the child (exit ${status}): ${stderr}`));
      resolve({ status, stdout, stderr: stderr.slice(0, measured.index), lines: [], maxRssBytes: Number(measured[1]) });
    });
  });
}

const message = (code: number) => (code in VALIDATION_ERRORS ? VALIDATION_ERRORS[code as keyof typeof VALIDATION_ERRORS] : ERRORS[code as keyof typeof ERRORS][0]);
export const err = (field: string | null, code: number) => ({ field, code_error: code, error_message: message(code) });
export const unreadable = (reason: string) => ({ field: null, code_error: 130, error_message: message(130), reason });
export const ok = (line: number) => ({ line, valid: true, errors: [], suggestions: {} });
export const bad = (line: number, errors: object[], suggestions: Record<string, string> = {}) => ({ line, valid: false, errors, suggestions });
/** A valid record whose city the catalog cannot check (its code has none): warning 125, not error 123. */
export const unverifiedCity = (line: number) => ({ ...ok(line), warnings: [err('ciudad', 125)] });

/** Windows-1252 bytes of a text (Latin-1, plus the curly quotes and dashes Excel writes). */
export function windows1252(text: string): Buffer {
  const extra: Record<string, string> = { '“': '\x93', '”': '\x94', '–': '\x96', '€': '\x80' };
  const mapped = text.replace(/[“”–€]/g, (c) => extra[c]!);
  if (/[\u0100-\uffff]/.test(mapped)) throw new Error('not a Windows-1252 text');
  return Buffer.from(mapped, 'latin1');
}

/** UTF-16 bytes of a text, with the byte-order mark. */
export function utf16(text: string, endian: 'le' | 'be'): Buffer {
  const bytes = Buffer.from(`\uFEFF${text}`, 'utf16le');
  return endian === 'le' ? bytes : bytes.swap16();
}
