// What the sink keeps of one request body. The whole body (up to
// MAX_BODY_BYTES) lives only until it has been judged against the contracts;
// the record keeps its first KEPT_BODY_BYTES, its length and its sha256, so a
// sender (or a stranger) posting large bodies costs the sink a bounded amount
// of memory per attempt however long the session runs.
import { createHash, type Hash } from 'node:crypto';

/** Bodies beyond this many bytes are answered 413 and never judged whole (arbitrary: 1,000 times a webhook body of spec 2.2). */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Bytes of a body the record keeps. Arbitrary: a batch body of spec 2.3 with
 * five payments is about 2 KiB, so every body a sender means is kept whole.
 */
const KEPT_BODY_BYTES = 4096;

export interface FinishedBody {
  /** The whole body as text, when it was at most MAX_BODY_BYTES (to be judged once, then dropped). */
  whole?: string;
  /** What the record keeps: the whole body, or its first KEPT_BODY_BYTES and a note of the cut. */
  kept: string;
  bytes: number;
  /** Hex sha256 of every byte received, set when the kept text is not the whole body. */
  sha256?: string;
}

export class BodyReader {
  private chunks: Buffer[] = [];
  private hash: Hash | undefined = createHash('sha256');
  private head: Buffer | undefined;
  bytes = 0;

  get overLimit(): boolean { return this.bytes > MAX_BODY_BYTES; }

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    this.hash?.update(chunk);
    if (this.bytes <= MAX_BODY_BYTES) { this.chunks.push(chunk); return; }
    // Over the limit: keep the head only; the rest is counted and hashed.
    if (!this.head) { this.head = prefix(Buffer.concat([...this.chunks, chunk])); this.chunks = []; }
  }

  /** The first `n` bytes received so far, as text (for a cheap search before the body is read). */
  peek(n: number): string {
    if (this.head) return this.head.toString('utf8');
    const parts: Buffer[] = [];
    let size = 0;
    for (const c of this.chunks) { if (size >= n) break; parts.push(c); size += c.length; }
    return Buffer.concat(parts).subarray(0, n).toString('utf8');
  }

  /** The body so far (complete or not): the text to judge when it is whole, and what the record keeps. */
  finish(complete: boolean): FinishedBody {
    const all = this.head ?? Buffer.concat(this.chunks);
    this.chunks = [];
    const sha = () => { const h = this.hash!.digest('hex'); this.hash = undefined; return h; };
    if (complete && !this.head && all.length <= KEPT_BODY_BYTES) {
      this.hash = undefined;
      return { whole: all.toString('utf8'), kept: all.toString('utf8'), bytes: this.bytes };
    }
    const sha256 = sha();
    const head = prefix(all);
    const why = this.head ? `over the ${MAX_BODY_BYTES}-byte limit` : !complete ? 'the body never finished' : 'kept in part';
    return {
      ...(complete && !this.head ? { whole: all.toString('utf8') } : {}),
      kept: `${head.toString('utf8')}…[${why}: ${this.bytes} bytes in all, sha256 ${sha256}; the first ${head.length} kept]`,
      bytes: this.bytes, sha256,
    };
  }
}

/** The first KEPT_BODY_BYTES of buf, cut back to a whole UTF-8 character. */
function prefix(buf: Buffer): Buffer {
  if (buf.length <= KEPT_BODY_BYTES) return buf;
  let end = KEPT_BODY_BYTES;
  // A continuation byte (10xxxxxx) belongs to a character that started earlier.
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return Buffer.from(buf.subarray(0, end));
}
