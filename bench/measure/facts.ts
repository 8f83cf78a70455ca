/** What a run was measured on: the machine, and the catalog as found on disk. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { unzipSync } from 'fflate';
import { packageRoot } from '../../src/package-root.js';
import type { Results } from '../results.js';

export function machineFacts(): Results['machine'] {
  // The one-minute load average as the run begins: how busy the shared machine was.
  return { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', platform: `${process.platform} ${process.arch}`, memoryBytes: totalmem(), loadAverage: Math.round(loadavg()[0]! * 100) / 100 };
}

/** The catalog's file, size and hash (as the artifact built from it records), and its text's size. */
export function catalogFacts(catalog: string, artifact: string): { file: string; bytes: number; sha256: string; rawText: number; zip: number | null } {
  const bytes = readFileSync(catalog);
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  const status = execFileSync(process.execPath, [join(packageRoot, 'dist', 'cli.cjs'), 'status', '--json', '--data', artifact], { encoding: 'utf8' });
  return {
    file: basename(catalog),
    bytes: bytes.length,
    sha256: (JSON.parse(status) as { header: { source: { sha256: string } } }).header.source.sha256,
    rawText: isZip ? Object.values(unzipSync(bytes))[0]!.length : bytes.length,
    zip: isZip ? bytes.length : null,
  };
}
