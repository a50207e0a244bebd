/**
 * Text gathered into bytes until a batch is full, then handed out as one Buffer (which the caller
 * writes to the socket). Each text is encoded as it is added, so the strings die young instead of
 * living on in a growing string until the batch is written.
 */
export class ByteBatch {
  private buffer: Buffer;
  private length = 0;

  /** Room for twice the batch, so the text that fills a batch rarely needs a bigger buffer. */
  constructor(private readonly batchBytes: number) {
    this.buffer = Buffer.allocUnsafe(2 * batchBytes);
  }

  /** Appends `text` (UTF-8); grows the buffer when one text does not fit. */
  add(text: string): void {
    const most = text.length * 3;
    if (this.length + most > this.buffer.length) {
      const needed = Buffer.byteLength(text);
      if (this.length + needed > this.buffer.length) {
        const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + needed));
        this.buffer.copy(grown, 0, 0, this.length);
        this.buffer = grown;
      }
    }
    this.length += this.buffer.write(text, this.length);
  }

  /** At least the batch size gathered. */
  get full(): boolean {
    return this.length >= this.batchBytes;
  }

  /** The bytes gathered so far; the batch starts empty again. */
  take(): Buffer {
    const out = this.buffer.subarray(0, this.length);
    this.buffer = Buffer.allocUnsafe(2 * this.batchBytes);
    this.length = 0;
    return out;
  }
}
