// The bodies the sink read lately, so that a body sent again (a retry, or a
// flood of one kind of body) is parsed and judged once.
import { readBody, type BodyFacts } from './checks/facts.ts';

/**
 * Distinct bodies whose reading is remembered, and distinct lists of violations
 * (arbitrary: 256 each, of bodies of at most 4 KiB, the ones the record keeps
 * whole, and of lists of at most 8 KiB as JSON: 3 MiB at most).
 */
const READ_BODIES = 256;
const SHARED_VIOLATIONS_CHARS = 8192;

/**
 * The bodies read lately, by their text. A sender's retries carry the same body,
 * and so may every request of a busy sender: such a body is parsed and judged
 * once, and every attempt keeps the same text and facts (nothing changes facts
 * once read), so the sink spends neither time nor memory on the repeats.
 */
export class ReadBodies {
  private readonly byText = new Map<string, { text: string; facts: BodyFacts }>();
  private readonly violations = new Map<string, BodyFacts['violations']>();

  read(text: string): { text: string; facts: BodyFacts } {
    let r = this.byText.get(text);
    if (r) return r;
    r = { text, facts: this.facts(text) };
    remember(this.byText, text, r);
    return r;
  }

  /**
   * The facts of a body, its violations shared with earlier bodies that broke the
   * contract alike (a flood of one wrong kind of body differs only in its ids).
   */
  facts(text: string): BodyFacts {
    const f = readBody(text);
    if (!f.violations.length) return f;
    const key = JSON.stringify(f.violations);
    if (key.length > SHARED_VIOLATIONS_CHARS) return f;
    const seen = this.violations.get(key);
    if (seen) f.violations = seen;
    else remember(this.violations, key, f.violations);
    return f;
  }
}

/** Adds to a map of at most READ_BODIES entries, forgetting the oldest. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= READ_BODIES) map.delete(map.keys().next().value!);
  map.set(key, value);
}
