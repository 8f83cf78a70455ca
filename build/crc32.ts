/**
 * CRC-32 (the zip's checksum) of bytes, continuing from a previous value. Node's own zlib.crc32
 * (native) where it exists, from Node 20.15; the table form below on older Node 20 releases,
 * which cpmx's engines still admit.
 */
import * as zlib from 'node:zlib';

export type Crc32 = (data: Uint8Array, value?: number) => number;

let table: Int32Array | undefined;

/** The reflected CRC-32 of zip and PNG (polynomial 0xEDB88320), one byte at a time by table. */
export const tableCrc32: Crc32 = (data, value = 0) => {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let crc = ~value;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
};

const native = (zlib as { crc32?: Crc32 }).crc32;

export const crc32: Crc32 = native ?? tableCrc32;
