/** Records cut into batches of a fixed size as they are parsed, taken by the reader in file order. */
export class Batches<T> {
  private readonly full: T[][] = [];
  private filling: T[] = [];

  constructor(private readonly size: number) {}

  push(record: T): void {
    this.filling.push(record);
    if (this.filling.length === this.size) {
      this.full.push(this.filling);
      this.filling = [];
    }
  }

  /** The next full batch, or undefined if there is none yet. */
  takeFull(): T[] | undefined {
    return this.full.shift();
  }

  /** The batch still filling (after the end of the input, once the full batches are taken). */
  takeRest(): T[] {
    const rest = this.filling;
    this.filling = [];
    return rest;
  }
}
