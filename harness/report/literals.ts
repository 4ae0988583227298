// Finds many literal texts in a string in one pass, for the redactor: a few
// hundred secrets (every token a run is issued, with their encoded spellings)
// looked for in every string of the evidence. A pattern of them all, rebuilt
// after each token, took 12 % of a run's CPU; this index takes a new text in
// constant time and scans a string once, whatever their number: a rolling key
// of the four characters at each place, and a filter of the keys present that
// passes over most places without a lookup.

/** Length of the prefix the texts are indexed by: the shortest text allowed. */
const KEY_LENGTH = 4;

/** 31 to the power KEY_LENGTH - 1: the weight of the character that leaves a rolling key. */
const LEAVING = 31 ** (KEY_LENGTH - 1);

/** Bits of a key that index the filter of keys present (64 KiB). */
const FILTER_MASK = 0xffff;

/**
 * A hash of the KEY_LENGTH characters at `i`, the polynomial sum of c * 31^(KEY_LENGTH - 1 - k) modulo 2^32
 * (collisions only add candidates, each compared in full).
 */
function keyAt(s: string, i: number): number {
  let h = 0;
  for (let k = 0; k < KEY_LENGTH; k++) h = Math.imul(h, 31) + s.charCodeAt(i + k) | 0;
  return h;
}

/** keyAt(s, i + 1) from `h`, keyAt(s, i): the character at i leaves, the one at i + KEY_LENGTH comes in. */
function nextKey(s: string, i: number, h: number): number {
  return Math.imul(h - Math.imul(s.charCodeAt(i), LEAVING), 31) + s.charCodeAt(i + KEY_LENGTH) | 0;
}

export class Literals<V> {
  /** Prefix hash -> the texts with that prefix and their values, longest first. */
  private readonly byKey = new Map<number, Array<{ text: string; value: V }>>();
  /** Whether some text's key has these low bits: most places of a string are passed over without a lookup. */
  private readonly filter = new Uint8Array(FILTER_MASK + 1);
  private count = 0;

  get size(): number { return this.count; }

  /** Adds a text of at least KEY_LENGTH characters; a text added again takes the new value. */
  add(text: string, value: V): void {
    if (text.length < KEY_LENGTH) throw new RangeError(`a literal needs ${KEY_LENGTH} characters or more`);
    const key = keyAt(text, 0);
    const list = this.byKey.get(key) ?? [];
    const had = list.find(e => e.text === text);
    if (had) { had.value = value; return; }
    list.push({ text, value });
    list.sort((a, b) => b.text.length - a.text.length);
    this.byKey.set(key, list);
    this.filter[key & FILTER_MASK] = 1;
    this.count++;
  }

  /**
   * `s` with every stretch covered by the texts found replaced by what `by` gives for the first text of the stretch:
   * found left to right, the longest at each place, and texts that overlap make one stretch, so no part of any text
   * survives (a text inside a longer one goes with it; two that overlap go together).
   */
  replace(s: string, by: (text: string, value: V) => string): string {
    if (!this.count || s.length < KEY_LENGTH) return s;
    let out = '', last = 0;
    let start = -1, end = -1, first: { text: string; value: V } | undefined;
    const lastPlace = s.length - KEY_LENGTH;
    for (let i = 0, key = keyAt(s, 0); i <= lastPlace; key = i < lastPlace ? nextKey(s, i, key) : 0, i++) {
      if (!this.filter[key & FILTER_MASK]) continue;
      const hit = this.byKey.get(key)?.find(e => s.startsWith(e.text, i));
      if (!hit) continue;
      if (first && i < end) { end = Math.max(end, i + hit.text.length); continue; }
      if (first) { out += s.slice(last, start) + by(first.text, first.value); last = end; }
      first = hit; start = i; end = i + hit.text.length;
    }
    if (!first) return s;
    return out + s.slice(last, start) + by(first.text, first.value) + s.slice(end);
  }
}
