/**
 * What the command line adds, on stderr, for a person at the keyboard: the closest command or
 * option to a mistyped one, how to pass a token, and a postal code that lost its leading zero.
 * Hints never change an answer or an exit status.
 */
import { TEST_TOKEN, isSuccess, type Body } from '../core/contract.js';
import { rawRequest, type Method, type RawRequest } from '../core/request.js';

/** The candidate nearest to `word` when near enough to be a typo (at most a third of it, and 3, edited). */
export async function closest(word: string, candidates: readonly string[]): Promise<string | undefined> {
  const { distance } = await import('fastest-levenshtein');
  const folded = word.toLowerCase().replace(/-/g, '_');
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.ceil(folded.length / 3));
  for (const candidate of candidates) {
    const d = distance(folded, candidate.toLowerCase().replace(/-/g, '_'));
    if (d <= bestDistance && (best === undefined || d < bestDistance)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

const TOKEN_HINT = `cpmx: pass a token with --token T or the CPMX_TOKEN environment variable (export CPMX_TOKEN=my-app):
  any token answers from the local catalog; "pruebas" gives test mode (fictitious data, no catalog needed)`;

/**
 * After a lookup command printed `body`: on a terminal, how to pass a missing token (106); and,
 * when a 4-digit code answered 102 and the code with a leading zero exists, that it does (test
 * mode has no catalog to say so).
 */
export function afterLookup(method: Method, segment: string | undefined, body: Body, answer: (raw: RawRequest) => Body, token: string | undefined): void {
  if (isSuccess(body)) return;
  const code = (body as { code_error?: number }).code_error;
  if (code === 106 && process.stderr.isTTY) process.stderr.write(`${TOKEN_HINT}\n`);
  if (code === 102 && (method === 'info_cp' || method === 'get_colonia_por_cp') && token !== TEST_TOKEN && segment && /^\d{4}$/.test(segment)) {
    const padded = `0${segment}`;
    if (isSuccess(answer(rawRequest({ method, segment: padded })))) {
      process.stderr.write(`cpmx: ${padded} exists: postal codes have 5 digits, and a leading zero is often lost (cpmx info_cp ${padded})\n`);
    }
  }
}
