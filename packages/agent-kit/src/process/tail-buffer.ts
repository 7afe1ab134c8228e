/** Keeps the last `limit` characters of a stream of text chunks, and how many came in all. */
export class TailBuffer {
  readonly limit: number;
  private text = "";
  private total = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  append(chunk: string): void {
    this.total += chunk.length;
    this.text += chunk;
    // Trim only once the text is well past the limit, so appending stays linear.
    if (this.text.length > this.limit * 2) this.text = this.text.slice(-this.limit);
  }

  /** The kept tail: the last `limit` characters. */
  toString(): string {
    return this.text.length > this.limit ? this.text.slice(-this.limit) : this.text;
  }

  /** Characters appended in all, including those no longer kept. */
  get totalLength(): number {
    return this.total;
  }
}
