/** An Int32Array that doubles its capacity as values are pushed; `length` is the used part. */
export class GrowableInt32Array {
  values: Int32Array;
  length = 0;

  constructor(initialCapacity = 1024) {
    this.values = new Int32Array(initialCapacity);
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  clear(): void {
    this.length = 0;
  }
}
