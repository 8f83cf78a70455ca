/**
 * Conditional requests: a successful real-data answer is a pure function of the catalog, this
 * cpmx and the request, so its strong ETag is made of those, with no hashing of the body.
 */
import type { Catalog } from '../core/catalog.js';
import { METHODS, type RawRequest } from '../core/request.js';

/** A short, distinct name for each method in ETags: its place in the method table. */
const METHOD_TAGS = new Map(Object.keys(METHODS).map((method, i) => [method, i.toString(36)]));

/** Names the catalog (its source's sha256) and the code answering (cpmx's version). */
export function catalogTag(catalog: Catalog, version: string): string {
  return `${catalog.header.source.sha256.slice(0, 16)}.${catalog.header.version}.${version}`;
}

/**
 * The ETag of a real-data answer to `request`: it names everything the answer depends on, the
 * method, `type`, the segment and each parameter given. `:` never appears in an encoded value,
 * so the parts cannot run into each other.
 */
export function etagOf(tag: string, request: RawRequest): string {
  let etag = `"${tag}.${METHOD_TAGS.get(request.method) ?? request.method}${request.type === undefined ? '' : 's'}.${encodeURIComponent(request.segment ?? '')}`;
  if (request.estado !== undefined) etag += `:e${encodeURIComponent(request.estado)}`;
  if (request.municipio !== undefined) etag += `:m${encodeURIComponent(request.municipio)}`;
  if (request.colonia !== undefined) etag += `:c${encodeURIComponent(request.colonia)}`;
  if (request.limit !== undefined) etag += `:l${encodeURIComponent(request.limit)}`;
  return `${etag}"`;
}

/** True when an If-None-Match header names `etag` (or is `*`). */
export function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
