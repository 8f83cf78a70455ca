/**
 * The checks every HTTP door makes of a request before it answers it, written once for the
 * API's answer path (src/http/), the server (src/serve/) and the panel (src/panel/).
 */

/** Whether a request of `method` only reads (GET or HEAD): the API answers nothing else (405). */
export function isRead(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 * Whether `target` is at `path`: the path itself or with a query (`P`, `P?...`), and, with
 * `below`, also with a slash and what follows it (`P/...`).
 */
export function targetIs(target: string, path: string, below = false): boolean {
  if (!target.startsWith(path)) return false;
  if (target.length === path.length) return true;
  const next = target.charCodeAt(path.length);
  return next === 0x3f /* ? */ || (below && next === 0x2f) /* / */;
}

/** The token of an `Authorization: Bearer T` header (the scheme in any case), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}
