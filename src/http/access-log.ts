/** The access log: one Common Log Format line per request, with the token hidden. */

/** Hides the token in logged request targets: it is a credential. */
export function redactToken(target: string): string {
  return target.replace(/([?&]token=)[^&#]*/g, '$1REDACTED');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function clfDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

export interface LoggedRequest {
  address: string | undefined;
  method: string | undefined;
  target: string;
  httpVersion: string;
}

/** The Common Log Format line of one request; `bytes` is '-' when no body was sent. */
export function accessLogLine(request: LoggedRequest, status: number, bytes: number | '-', date = new Date()): string {
  return `${request.address ?? '-'} - - [${clfDate(date)}] "${request.method} ${redactToken(request.target)} HTTP/${request.httpVersion}" ${status} ${bytes}`;
}
