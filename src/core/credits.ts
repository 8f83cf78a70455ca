/**
 * The one credit step. The router names what an answer costs; `settle` asks the registry
 * and gives the final answer, for every adapter alike: a real answer consumes a credit
 * (or only looks for one, for HEAD and 304), test mode and early errors cost nothing, and
 * any other error still needs a token the registry holds (107 comes before parameters).
 */
import { success } from './contract.js';
import type { Answer } from './router.js';
import { errorAnswer } from './router.js';

/** What taking one credit did. */
export type Consumption = 'spent' | 'none-left' | 'unknown';

/**
 * Token accounting. Either every method answers synchronously (the library client needs
 * that) or every method returns a promise (a database across the network).
 */
export interface TokenRegistry {
  /** Credits left to a token; undefined when the registry does not hold it (or it is revoked). */
  credits(token: string): number | undefined | Promise<number | undefined>;
  /** Takes one credit, atomically: the last one is never sold twice. */
  consume(token: string): Consumption | Promise<Consumption>;
}

/** `spend` for an answer that is delivered; `look` for HEAD and 304, which cost nothing but need a credit. */
export type SettleMode = 'spend' | 'look';

/**
 * The final answer, once the registry has had its say; a promise when the registry answers
 * with one. `cuenta/consultas_disponibles` gets the registry's count here (`null` stays where
 * no registry counts): it never spends a credit, and a token with none left reads 0.
 */
export function settle(answer: Answer, registry: TokenRegistry | undefined, mode: SettleMode = 'spend'): Answer | Promise<Answer> {
  if (!registry || answer.credit === 'none') return answer;
  const token = answer.token!;
  if (answer.credit === 'count') {
    return after(registry.credits(token), (left) =>
      left === undefined ? errorAnswer(107, token, 'none') : { ...answer, body: success({ consultas_disponibles: Math.max(0, left) }) },
    );
  }
  if (answer.credit === 'spend' && mode === 'spend') {
    return after(registry.consume(token), (outcome) => (outcome === 'spent' ? answer : errorAnswer(outcome === 'unknown' ? 107 : 108, token, 'none')));
  }
  return after(registry.credits(token), (left) => {
    if (left === undefined) return errorAnswer(107, token, 'none');
    return answer.credit === 'spend' && left <= 0 ? errorAnswer(108, token, 'none') : answer;
  });
}

function after<T, R>(value: T | Promise<T>, then: (value: T) => R): R | Promise<R> {
  return isPromise(value) ? value.then(then) : then(value);
}

export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
