/**
 * What the artifact's header says about where its catalog came from and when: the source
 * (file, sha256, size, encoding, the catalog's own date), each source when there were several,
 * the catalog's notice and the build time.
 *
 * For several sources, `source` describes them together, so that everything reading it (the
 * ETag, `cpmx status`) stays right: their names joined, the sha256 of their sha256s (one a line,
 * in the order given: it changes whenever any of them does), their total size, and the oldest
 * of their dates, since the merged catalog is only as current as its oldest part.
 */
import { createHash } from 'node:crypto';
import { recordedTime, type SourceInfo } from '../src/core/format.js';
import type { Provenance } from './model.js';
import type { CatalogSourceInfo } from './reader.js';

export function provenance(infos: readonly CatalogSourceInfo[], builtAt: Date): Provenance {
  const each = infos.map(sourceInfo);
  const notice = infos.find((info) => info.notice)?.notice ?? '';
  if (each.length === 1) return { source: each[0]!, notice, builtAt: builtAt.toISOString() };
  const encodings = new Set(each.map((source) => source.encoding));
  const dates = each.map((source) => source.date);
  const oldest = dates.every((date) => date !== undefined) ? [...dates].sort((a, b) => recordedTime(a!) - recordedTime(b!))[0] : undefined;
  const source: SourceInfo = {
    file: each.map((s) => s.file).join(' + '),
    sha256: createHash('sha256')
      .update(each.map((s) => s.sha256).join('\n'))
      .digest('hex'),
    bytes: each.reduce((sum, s) => sum + s.bytes, 0),
    encoding: encodings.size === 1 ? each[0]!.encoding : 'mixed',
    ...(oldest ? { date: oldest } : {}),
  };
  return { source, notice, sources: each, builtAt: builtAt.toISOString() };
}

function sourceInfo(info: CatalogSourceInfo): SourceInfo {
  const { file, sha256, bytes, encoding, date, dateFrom } = info;
  return { file, sha256, bytes, encoding, ...(date ? { date, dateFrom } : {}) };
}
