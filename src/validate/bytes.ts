/**
 * Result lines written straight into bytes: a valid record's line is constant bytes around
 * its line number, so the common case builds no string at all (strings built per record were
 * a fifth of validation's time, in garbage collection).
 */
export class ByteWriter {
  private buffer = Buffer.allocUnsafe(1 << 16);
  private length = 0;

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  bytes(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** A non-negative integer, in decimal. */
  integer(value: number): void {
    this.room(16);
    const buffer = this.buffer;
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    let at = this.length + digits;
    this.length = at;
    let rest = value;
    do {
      buffer[--at] = 48 + (rest % 10);
      rest = Math.floor(rest / 10);
    } while (rest > 0);
  }

  text(text: string): void {
    this.room(text.length * 3);
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  /** What was written since the last take, in memory of its own (so it can be moved to another thread). */
  take(): Uint8Array {
    const taken = new Uint8Array(this.length);
    taken.set(this.buffer.subarray(0, this.length));
    this.length = 0;
    return taken;
  }
}
