/**
 * Conditional requests: a successful real-data answer is a pure function of the catalog, this
 * cpmx and the request, so its strong ETag is made of those, with no hashing of the body.
 */
import type { Catalog } from '../core/catalog.js';
import { requestKey, type RawRequest } from '../core/request.js';

/** Names the catalog (its source's sha256) and the code answering (cpmx's version). */
export function catalogTag(catalog: Catalog, version: string): string {
  return `${catalog.header.source.sha256.slice(0, 16)}.${catalog.header.version}.${version}`;
}

/** The ETag of a real-data answer to `request`: the catalog's and cpmx's tag, and what the request names (requestKey). */
export function etagOf(tag: string, request: RawRequest): string {
  return `"${tag}.${requestKey(request)}"`;
}

/** True when an If-None-Match header names `etag` (or is `*`). */
export function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
