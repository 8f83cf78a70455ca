/**
 * The HTTP status of every answer cpmx sends, decided here once. The contract's errors take
 * theirs from its table (core/contract.ts, `contractStatus`); every answer the server makes
 * itself, outside the contract, is one entry below: its status, the message of its envelope
 * and the headers it must carry. `cpmx serve`, the middleware, the fetch handler, /metrics,
 * the panel and `cpmx query` all take their statuses from this module, so a door cannot
 * answer a refusal another door answers differently.
 */
import { serverError, statusOf, type ServerErrorEnvelope } from '../core/contract.js';
import { INTERNAL_ERROR, STATUS, type ServerAnswer } from './statuses.js';

export { INTERNAL_ERROR, STATUS, type ServerAnswer } from './statuses.js';

/** The HTTP status the contract gives an error code. */
export const contractStatus = statusOf;

/** Longest request target served; longer ones answer 414 (`SERVER_ANSWERS.urlTooLong`). */
export const MAX_URL_LENGTH = 2048;

/** The methods the API (and /metrics, and the panel's static files) answer. */
export const ALLOW = 'GET, HEAD';

export const REGISTRY_UNAVAILABLE = 'El registro de tokens no está disponible; no se cobró ningún crédito. Intente de nuevo en unos segundos.';

/** The server's answers that say the same whatever the request. */
export const SERVER_ANSWERS = {
  urlTooLong: { status: STATUS.urlTooLong, message: `La URL excede ${MAX_URL_LENGTH} caracteres` },
  headersTooLarge: { status: STATUS.headersTooLarge, message: 'Los encabezados de la petición son demasiado grandes' },
  requestTimeout: { status: STATUS.requestTimeout, message: 'La petición no llegó completa a tiempo' },
  tooLarge: { status: STATUS.tooLarge, message: 'La petición es demasiado grande' },
  malformed: { status: STATUS.badRequest, message: 'Petición HTTP malformada' },
  noHost: { status: STATUS.badRequest, message: 'Falta el encabezado Host' },
  unframedBody: { status: STATUS.badRequest, message: 'Transfer-Encoding no soportado: la última codificación debe ser chunked' },
  unsupportedExpectation: { status: STATUS.expectationFailed, message: 'Expectativa no soportada: solo se admite "Expect: 100-continue"' },
  /** A registry that cannot answer is never a free answer. */
  registryUnavailable: { status: STATUS.unavailable, message: REGISTRY_UNAVAILABLE, headers: ['Retry-After', '1'] },
  tooManyConnections: { status: STATUS.unavailable, message: 'Demasiadas conexiones abiertas; intente de nuevo', headers: ['Retry-After', '1'] },
  internal: INTERNAL_ERROR,
} as const satisfies Record<string, ServerAnswer>;

/** 405 to a method other than GET and HEAD (`where`: the path, for an endpoint of its own such as /metrics). */
export function methodNotAllowed(method: string, where?: string): ServerAnswer {
  return { status: STATUS.methodNotAllowed, message: `Método HTTP ${method} no permitido${where ? ` en ${where}` : ''}; use ${ALLOW}`, headers: ['Allow', ALLOW] };
}

/** 503 while the catalog cannot be loaded (test mode is still served). */
export function catalogNotLoaded(why: string): ServerAnswer {
  return { status: STATUS.unavailable, message: `El catálogo no está cargado: ${why}` };
}

/** 503 to the request past the limit of unread answers on one connection, which is then closed. */
export function tooManyPipelined(limit: number): ServerAnswer {
  return { status: STATUS.unavailable, message: `Más de ${limit} peticiones sin leer en esta conexión; se cierra` };
}

/** 401 to a request for `path` (/metrics) without its Bearer token. */
export function tokenRequired(path: string, realm: string): ServerAnswer {
  return { status: STATUS.unauthorized, message: `${path} requiere el token de métricas: Authorization: Bearer <token>`, headers: ['WWW-Authenticate', `Bearer realm="${realm}"`] };
}

/** 503 when the numbers of a cluster's processes did not arrive. */
export function metricsUnavailable(why: string): ServerAnswer {
  return { status: STATUS.unavailable, message: `Las métricas de los procesos no llegaron: ${why}`, headers: ['Retry-After', '1'] };
}

/** The envelope of a server answer: the contract's shape, `code_error` its status. */
export function envelopeOf(answer: ServerAnswer): ServerErrorEnvelope {
  return serverError(answer.status, answer.message);
}
