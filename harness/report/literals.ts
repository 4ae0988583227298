// Finds many literal texts in a string in one pass, for the redactor: a few
// hundred secrets (every token a run is issued, with their encoded spellings)
// looked for in every string of the evidence. A pattern of them all, rebuilt
// after each token, took 12 % of a run's CPU; this index takes a new text in
// constant time and scans a string once, whatever their number.

/** Length of the prefix the texts are indexed by: the shortest text allowed. */
const KEY_LENGTH = 4;

/** A hash of the KEY_LENGTH characters at `i` (collisions only add candidates, each compared in full). */
function keyAt(s: string, i: number): number {
  let h = 0;
  for (let k = 0; k < KEY_LENGTH; k++) h = Math.imul(h, 31) + s.charCodeAt(i + k) | 0;
  return h;
}

export class Literals<V> {
  /** Prefix hash -> the texts with that prefix and their values, longest first. */
  private readonly byKey = new Map<number, Array<{ text: string; value: V }>>();
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
    for (let i = 0; i <= s.length - KEY_LENGTH; i++) {
      const list = this.byKey.get(keyAt(s, i));
      const hit = list?.find(e => s.startsWith(e.text, i));
      if (!hit) continue;
      if (first && i < end) { end = Math.max(end, i + hit.text.length); continue; }
      if (first) { out += s.slice(last, start) + by(first.text, first.value); last = end; }
      first = hit; start = i; end = i + hit.text.length;
    }
    if (!first) return s;
    return out + s.slice(last, start) + by(first.text, first.value) + s.slice(end);
  }
}
