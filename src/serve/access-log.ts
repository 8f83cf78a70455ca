/** The access log: one Common Log Format line per request, with the token hidden. */
import { decodeComponent } from '../core/request.js';

/**
 * Hides the token in logged request targets: it is a credential. A parameter is the token when
 * its name decodes to `token`, as the request parser reads it (`%74oken=T` is one), so every
 * spelling the server accepts is hidden (in a fragment, which it ignores, too).
 */
export function redactToken(target: string): string {
  const end = target.length;
  const mark = target.indexOf('?');
  if (mark < 0) return target;
  let out = target.slice(0, mark + 1);
  for (let from = mark + 1; from <= end; ) {
    let amp = target.indexOf('&', from);
    if (amp < 0 || amp > end) amp = end;
    const equals = target.indexOf('=', from);
    const named = equals >= 0 && equals < amp;
    const parameter = target.slice(from, amp);
    out += named && decodeComponent(target.slice(from, equals)) === 'token' ? `${target.slice(from, equals)}=REDACTED` : parameter;
    if (amp < end) out += '&';
    from = amp + 1;
  }
  return out;
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
