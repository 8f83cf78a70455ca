/**
 * CRC-32 (the zip's checksum) of bytes, continuing from a previous value. Node's own zlib.crc32
 * (native) where it exists, from Node 20.15; the core's portable one on older Node 20
 * releases, which cpmx's engines still admit.
 */
import * as zlib from 'node:zlib';
import { crc32 as portableCrc32 } from '../src/core/crc32.js';

export type Crc32 = (data: Uint8Array, value?: number) => number;

/** The portable CRC-32 of the core, for Node 20 releases before zlib.crc32. */
export const tableCrc32: Crc32 = portableCrc32;

const native = (zlib as { crc32?: Crc32 }).crc32;

export const crc32: Crc32 = native ?? tableCrc32;
