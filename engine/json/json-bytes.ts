/**
 * JSON written straight into bytes, for reports: the fixed text of a report (keys, titles, formulas,
 * sources) is encoded once, when the plan is built, and a run copies those pieces and writes its
 * numbers between them. Strings joined and encoded afterwards make V8 walk the joined pieces to
 * flatten them, a large share of a busy service's time (bench/README.md, "Figures behind the code").
 *
 * Each text gets a buffer of its own, as large as the largest text the writer has written, and is
 * handed out as a view of it: no copy at the end, and almost never a copy on the way. Shared slabs,
 * as Node's own pool uses for small buffers, would make each new slab a fresh mapping whose pages
 * fault as they are written.
 *
 * Everything written is ASCII (see `jsonText`), so the bytes are the text's UTF-8 and its latin1.
 */
const MAX_CAPACITY = 64 * 1024;

export class JsonBytes {
  private buffer: Buffer;
  /** Bytes written so far. */
  length = 0;
  /** The size of the next text's buffer: the largest text so far, up to MAX_CAPACITY. */
  private capacity: number;

  constructor(capacity = 16 * 1024) {
    this.capacity = capacity;
    this.buffer = Buffer.allocUnsafe(capacity);
  }

  /** Starts a new text, in a buffer of its own. */
  reset(): void {
    // One very large report must not make every later one allocate as much: beyond this, texts grow as they go.
    if (this.length > this.capacity) this.capacity = Math.min(this.length, MAX_CAPACITY);
    this.buffer = Buffer.allocUnsafe(this.capacity);
    this.length = 0;
  }

  /** Bytes prepared with the plan. */
  piece(bytes: Uint8Array): void {
    const end = this.length + bytes.length;
    if (end > this.buffer.length) this.grow(end);
    this.buffer.set(bytes, this.length);
    this.length = end;
  }

  /** Text made during the run (numbers, decimals), all ASCII: short, so copied a character at a time. */
  ascii(text: string): void {
    const end = this.length + text.length;
    if (end > this.buffer.length) this.grow(end);
    const buffer = this.buffer;
    for (let index = 0, at = this.length; at < end; index++, at++) buffer[at] = text.charCodeAt(index);
    this.length = end;
  }

  /** A safe integer in decimal digits, as JSON writes it, without making its text first. */
  integer(value: number): void {
    if (!Number.isSafeInteger(value)) return this.ascii(JSON.stringify(value));
    let rest = value;
    if (rest < 0) {
      this.byte(0x2d);
      rest = -rest;
    }
    let digits = 1;
    for (let power = 10; power <= rest; power *= 10) digits++;
    if (this.length + digits > this.buffer.length) this.grow(this.length + digits);
    const buffer = this.buffer;
    for (let at = this.length + digits - 1; at >= this.length; at--) {
      buffer[at] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.length += digits;
  }

  /** One ASCII character, by its code. */
  byte(code: number): void {
    if (this.length === this.buffer.length) this.grow(this.length + 1);
    this.buffer[this.length++] = code;
  }

  /** Writes again what was written from `start` to `end`: a trace node the report shows a second time. */
  again(start: number, end: number): void {
    const length = end - start;
    if (this.length + length > this.buffer.length) this.grow(this.length + length);
    this.buffer.copyWithin(this.length, start, end);
    this.length += length;
  }

  /** What was written, as a view of the text's own buffer. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private grow(needed: number): void {
    const larger = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
  }
}

/** Fixed JSON text, ASCII, as the bytes a report copies. */
export function asciiBytes(text: string): Uint8Array {
  return Buffer.from(text, 'latin1');
}

export const QUOTE = 0x22;
export const COMMA = 0x2c;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const CLOSE_BRACE = 0x7d;
