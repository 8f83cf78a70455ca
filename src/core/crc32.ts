/**
 * CRC-32 (IEEE 802.3, the zip and zlib one), in plain JavaScript so the core can check an
 * artifact in any runtime. Node's zlib.crc32 gives the same value in about a quarter of the
 * time; adapters that have it pass it to `decodeCatalog` instead.
 */

let tables: Int32Array | undefined;

/** Four lookup tables, for four bytes a step ("slicing by 4"). */
function crcTables(): Int32Array {
  const table = new Int32Array(1024);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    for (let slice = 1; slice < 4; slice++) {
      const previous = table[(slice - 1) * 256 + n]!;
      table[slice * 256 + n] = (previous >>> 8) ^ table[previous & 0xff]!;
    }
  }
  return table;
}

/** The CRC-32 of `bytes`, as an unsigned 32-bit integer, continuing from `previous` (the CRC of the bytes before them). */
export function crc32(bytes: Uint8Array, previous = 0): number {
  const t = (tables ??= crcTables());
  let c = ~previous;
  let i = 0;
  for (const end = bytes.length - 3; i < end; i += 4) {
    c ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    c = t[768 + (c & 0xff)]! ^ t[512 + ((c >>> 8) & 0xff)]! ^ t[256 + ((c >>> 16) & 0xff)]! ^ t[c >>> 24]!;
  }
  for (; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
