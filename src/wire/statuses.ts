/**
 * The statuses of status.ts, and the one answer of the server's own that a failure needs, in a
 * module of their own: status.ts's other answers (their texts) are kept whole in any bundle that
 * imports it, and the bundle a lookup loads needs only these (http/deferred-middleware.ts answers
 * 500 when a handler's request side could not be loaded). Import them from status.ts elsewhere.
 */

/** The statuses of answers outside the contract's table, by what they mean. */
export const STATUS = {
  ok: 200,
  /** A CORS preflight's answer. */
  noContent: 204,
  /** After a form: the browser asks for the next page with GET. */
  seeOther: 303,
  /** The client holds the answer (If-None-Match). */
  notModified: 304,
  /** An address that moved for good (the panel's `/panel` to `/panel/`). */
  permanentRedirect: 308,
  badRequest: 400,
  /** /metrics without its token; a panel log-in that failed. */
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  requestTimeout: 408,
  tooLarge: 413,
  urlTooLong: 414,
  unsupportedMediaType: 415,
  expectationFailed: 417,
  /** A host name this server does not serve (the panel, against DNS rebinding). */
  misdirected: 421,
  /** A form that does not pass its checks. */
  unprocessable: 422,
  tooManyRequests: 429,
  headersTooLarge: 431,
  internal: 500,
  /** What cannot answer now and will (the catalog, the registry, too many connections): try again. */
  unavailable: 503,
} as const;

/** An answer the server makes itself: its status, its envelope's message, the headers it carries besides the envelope's. */
export interface ServerAnswer {
  readonly status: number;
  readonly message: string;
  readonly headers?: readonly string[] | undefined;
}

/** What any failure while answering becomes. */
export const INTERNAL_ERROR: ServerAnswer = { status: STATUS.internal, message: 'Error interno del servidor' };
