/**
 * What the command line adds, on stderr, for a person at the keyboard: the closest command or
 * option to a mistyped one, how to give a request path a token, and a postal code that lost its leading zero.
 * Hints never change an answer or an exit status.
 */
import { isSuccess, type Body } from '../core/contract.js';
import { lostLeadingZero, lostLeadingZeroHint } from '../core/leading-zero.js';
import type { Method, RawRequest } from '../core/request.js';

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

/** On a terminal, after a request path answered 106: how to give it a token. */
export function afterQuery(body: Body): void {
  if ((body as { code_error?: number }).code_error === 106 && process.stderr.isTTY) {
    process.stderr.write(
      'cpmx: a request path answers as the HTTP API does: give it a token (token=T in the path, --token T or CPMX_TOKEN); any token answers from the local catalog, "pruebas" gives test mode\n',
    );
  }
}

/**
 * After a lookup command printed `body`: when a 4-digit code answered 102 and the code with a
 * leading zero exists, that it does (core/leading-zero.ts, the rule the library follows too).
 */
export function afterLookup(method: Method, segment: string | undefined, body: Body, answer: (raw: RawRequest) => Body, token: string | undefined): void {
  if (isSuccess(body)) return;
  const padded = lostLeadingZero(method, segment, body, token, answer);
  if (padded) process.stderr.write(`cpmx: ${lostLeadingZeroHint(padded, `cpmx ${method} ${padded}`)}\n`);
}
