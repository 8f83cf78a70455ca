/**
 * The one router: from a request to its answer, checking in the contract's order (path,
 * token, parameters, lookup). What the answer costs is only named here (`credit`); the
 * credit step (`settle`, in credits.ts) decides it, the same way for every adapter.
 */
import { fullRecords, simplifiedRecord } from './answers/info-cp.js';
import type { CatalogReader } from './catalog-reader.js';
import { isPostalCode } from './checks.js';
import { TEST_TOKEN, failure, statusOf, type Body, type ErrorCode, type ErrorEnvelope } from './contract.js';
import { ROWS, type RouterContext } from './methods.js';
import { isUnavailable, parseRequestPath, type RawRequest, type Request } from './request.js';

export type { RouterContext };

/** The rows by name, typed for any request: each row is called with the request its own check made. */

/**
 * What an answer asks of the token registry: nothing (test mode, or an error found before the
 * token could be known), to know the token (any other error), one credit (a real answer), or
 * the token's count of credits, which `settle` fills in (`cuenta/consultas_disponibles`).
 */
export type Credit = 'none' | 'check' | 'spend' | 'count';

/** An answer with its HTTP status, before the credit step. */
export interface Answer<B extends Body = Body> {
  status: number;
  body: B;
  credit: Credit;
  /** The token it was asked with; the registry is asked about this one. */
  token: string | undefined;
  /** The body's JSON text, made without serialising the body (answers/text.ts), where the answer was made so. */
  text?: (() => string) | undefined;
}

/**
 * Another way to make a success's answer, for an adapter's needs (answers/text.ts makes some
 * as JSON text): called with a request that passed its checks and a real token; undefined
 * where it makes none, and the row answers.
 */
export type AnswerMaker = (request: Request, token: string, context: RouterContext) => Answer | undefined;

/** An error answer; `credit` says whether the registry must still vouch for the token (107 comes first). */
export function errorAnswer(code: ErrorCode, token: string | undefined, credit: Credit): Answer<ErrorEnvelope> {
  return { status: statusOf(code), body: failure(code), credit, token };
}

/**
 * Answers a request; undefined stands for a path the contract does not know (111). `make`: an
 * adapter's own way to make some successes (answers/text.ts: as JSON text, for bytes).
 */
export function handle(raw: RawRequest | undefined, context: RouterContext, make?: AnswerMaker): Answer {
  if (!raw) return errorAnswer(111, undefined, 'none');
  if (isUnavailable(raw.method)) return errorAnswer(113, undefined, 'none');
  const token = raw.token;
  if (!token) return errorAnswer(106, token, 'none');
  const testing = token === TEST_TOKEN;
  const row = ROWS.get(raw.method)!;
  const request: Request | ErrorCode = row.check(raw, token);
  if (typeof request === 'number') return errorAnswer(request, token, testing ? 'none' : 'check');
  if (testing) return { status: 200, body: row.testMode(request), credit: 'none', token };
  const made = make?.(request, token, context);
  if (made !== undefined) return made;
  const body = row.answer(request, context);
  if (typeof body === 'number') return errorAnswer(body, token, 'check');
  /* An error with a message of its own (113 naming what to build): the table's status all the same. */
  if (!Array.isArray(body) && body.error) return { status: statusOf(body.code_error), body, credit: 'check', token };
  // The account method's count is the credit step's to fill in.
  return { status: 200, body, credit: row.credit, token };
}

/**
 * What `handle` answers to `info_cp` of a well-formed code with a real token (`type` absent or
 * `simplified`), by the same checks and the same answer (105 for a code the catalog lacks),
 * without the request and answer objects `handle` makes; undefined for anything else (101, 102,
 * 104), which `handle` then answers. For callers with no credit to settle (the library client
 * without a registry, which holds its loaded catalog): its most frequent call costs little more
 * than the answer itself.
 */
export function infoCpBody(cp: string, simplified: boolean, catalog: CatalogReader): Body | undefined {
  // answerInfoCp's lookup and builders, written out: this is the library's hottest call.
  const entry = catalog.postalCodeEntry(cp);
  if (entry !== undefined) return simplified ? simplifiedRecord(entry, cp) : fullRecords(entry, cp);
  return isPostalCode(cp) ? failure(105) : undefined;
}

/** Routes a request path to its answer (before the credit step). */
export function route(path: string, context: RouterContext): Answer {
  return handle(parseRequestPath(path), context);
}
