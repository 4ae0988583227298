// What the harness keeps of a body a target sends: bounded, whatever the target
// sends. A body up to WHOLE_BODY_BYTES is kept whole (the checks parse it as
// JSON); a longer one keeps its first WHOLE_BODY_BYTES, and reading goes on
// only to count and hash it, up to READ_LIMIT_BYTES, where it is cut. Evidence
// in a report keeps less still: a short body whole, a long one as its first
// bytes, its length and its sha256.
import * as crypto from 'node:crypto';

/** Kept whole and parsed for the checks (1 MiB, arbitrary: far above any record or webhook body the spec describes). */
export const WHOLE_BODY_BYTES = 1024 * 1024;
/**
 * Reading stops here (16 MiB, arbitrary): enough to count and hash a 10 MB
 * answer whole in well under a second on loopback, and a bound on the time a
 * target streaming at full speed costs.
 */
export const READ_LIMIT_BYTES = 16 * 1024 * 1024;
/** Evidence keeps a body whole up to this size (64 KiB, arbitrary: every body a check quotes fits). */
export const EVIDENCE_WHOLE_BYTES = 64 * 1024;
/** Of a longer body, evidence keeps this many first bytes (arbitrary: enough to see what it is). */
export const EVIDENCE_HEAD_BYTES = 2 * 1024;

export interface ReadBody {
  /** The body as UTF-8 text: whole when `whole`, else its first WHOLE_BODY_BYTES. */
  text: string;
  /** Bytes read (all of them when reading was not cut). */
  bytes: number;
  /** sha256 (hex) of the bytes read. */
  sha256: string;
  /** True when `text` is the whole body. */
  whole: boolean;
  /** Set when reading stopped before the body ended: at READ_LIMIT_BYTES, or at the exchange's deadline. */
  cut?: 'limit' | 'deadline';
  /** The read limit, when the collector was given one other than READ_LIMIT_BYTES. */
  limit?: number;
}

/** Collects a body chunk by chunk in bounded memory. */
export class BodyCollector {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private read = 0;
  // Started only when the body outgrows what is kept: a body kept whole is
  // hashed at once from the kept bytes, which for a short answer costs a
  // third of a running hash.
  private hash?: crypto.Hash;

  constructor(private readonly wholeBytes = WHOLE_BODY_BYTES, private readonly limitBytes = READ_LIMIT_BYTES) {}

  get bytes(): number { return this.read; }

  /** Takes one chunk; false when the read limit is reached and reading should stop. */
  push(chunk: Buffer): boolean {
    const take = Math.min(chunk.length, this.limitBytes - this.read);
    const part = take < chunk.length ? chunk.subarray(0, take) : chunk;
    if (!this.hash && this.read + take > this.wholeBytes) {
      this.hash = crypto.createHash('sha256');
      for (const c of this.chunks) this.hash.update(c);
    }
    this.hash?.update(part);
    this.read += take;
    if (this.kept < this.wholeBytes) {
      const keep = part.subarray(0, this.wholeBytes - this.kept);
      this.chunks.push(keep);
      this.kept += keep.length;
    }
    return this.read < this.limitBytes;
  }

  finish(cut?: ReadBody['cut']): ReadBody {
    const whole = !cut && this.read <= this.wholeBytes;
    const kept = Buffer.concat(this.chunks);
    const sha256 = this.hash ? this.hash.digest('hex') : sha256Of(kept);
    return { text: kept.toString('utf8'), bytes: this.read, sha256, whole, ...(cut ? { cut } : {}),
      ...(this.limitBytes !== READ_LIMIT_BYTES ? { limit: this.limitBytes } : {}) };
  }
}

/** crypto.hash, one call, where Node has it (20.12 and later). */
function sha256Of(bytes: Buffer): string {
  return crypto.hash ? crypto.hash('sha256', bytes, 'hex') : crypto.createHash('sha256').update(bytes).digest('hex');
}

/** A body in a sentence: "10485760 bytes" or "16777216 bytes before it was cut at the read limit". */
export function describeBody(b: Pick<ReadBody, 'bytes' | 'cut' | 'limit'>): string {
  if (b.cut === 'limit') return `${b.bytes} bytes before it was cut at the ${b.limit ?? READ_LIMIT_BYTES}-byte read limit`;
  if (b.cut === 'deadline') return `${b.bytes} bytes before the deadline`;
  return `${b.bytes} bytes`;
}

/** A JSON number token as text: JSON.parse reads it into a double, which may lose what it said. */
const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Whether a JSON number token reads back as it was written: not past the double range, not -0, at most 15 significant digits. */
function numberKept(token: string): boolean {
  const n = Number(token);
  if (!Number.isFinite(n) || Object.is(n, -0)) return false;
  const digits = token.replace(/^-/, '').replace(/[eE].*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return digits.length <= 15 || String(n) === token;
}

/**
 * Whether JSON.parse of `text` says all its text said: false when a number is
 * past the double range, -0 or more precise than a double; the evidence then
 * keeps the text beside the parsed value. Strings are skipped, escapes and all.
 */
export function parsedFaithfully(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (ch === 0x2d || (ch >= 0x30 && ch <= 0x39)) {
      NUMBER_TOKEN.lastIndex = i;
      const m = NUMBER_TOKEN.exec(text);
      if (!m) continue;
      if (!numberKept(m[0])) return false;
      i += m[0].length - 1;
    }
  }
  return true;
}

/**
 * The body as evidence keeps it: the parsed JSON or the text when it is whole
 * and short (with the text beside the JSON when parsing lost something it
 * said); else its first bytes followed by a line with its length and sha256,
 * which also come as fields.
 */
export function evidenceBody(b: ReadBody, json: unknown): { body?: unknown; bodyText?: string; bodyBytes?: number; bodySha256?: string } {
  if (b.whole && b.bytes <= EVIDENCE_WHOLE_BYTES) {
    return { body: json ?? (b.text || undefined), ...(json !== undefined && !parsedFaithfully(b.text) ? { bodyText: b.text } : {}) };
  }
  const head = Buffer.from(b.text.slice(0, EVIDENCE_HEAD_BYTES), 'utf8').subarray(0, EVIDENCE_HEAD_BYTES).toString('utf8');
  return {
    body: `${head}\n… [kept the first ${EVIDENCE_HEAD_BYTES} bytes of ${describeBody(b)}; sha256 ${b.sha256}]`,
    bodyBytes: b.bytes, bodySha256: b.sha256,
  };
}
