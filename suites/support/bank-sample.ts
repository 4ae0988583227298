// Choosing banks without calling anything: the sample of a long bank list that
// still meets every country and every distinct supportedServices set, and the
// one-bank-per-behaviour choice of the payment flows. Pure functions, so the
// project's tests can feed them any list.

export type Bank = Record<string, unknown> & { id: string; countryCode?: string; supportedServices?: unknown };

/** The supportedServices set of a bank as one comparable word ("" for none, "?" when it is not an array of strings). */
export function servicesKey(b: Bank): string {
  const s = b.supportedServices;
  if (!Array.isArray(s) || s.some(x => typeof x !== 'string')) return '?';
  return [...new Set(s as string[])].sort().join('+');
}

const features = (b: Bank) => [`country ${String(b.countryCode ?? '?')}`, `services [${servicesKey(b)}]`];

export interface Sample {
  banks: Bank[];
  /** Countries and service sets that no chosen bank has (only when `max` was too small to meet them all). */
  uncovered: string[];
}

/**
 * At most `max` banks of `banks`: first a greedy cover of every country and
 * every distinct supportedServices set (each step takes the bank that meets
 * the most features not yet met, the earlier one on a tie), then the rest in
 * list order. The result keeps the list's order.
 */
export function sampleBanks(banks: readonly Bank[], max: number): Sample {
  if (banks.length <= max) return { banks: [...banks], uncovered: [] };
  const open = new Set(banks.flatMap(features));
  const chosen = new Set<Bank>();
  while (open.size && chosen.size < max) {
    let best: Bank | undefined, gain = 0;
    for (const b of banks) {
      if (chosen.has(b)) continue;
      const g = features(b).filter(f => open.has(f)).length;
      if (g > gain) { best = b; gain = g; }
    }
    if (!best) break;
    chosen.add(best);
    for (const f of features(best)) open.delete(f);
  }
  for (const b of banks) if (chosen.size < max) chosen.add(b);
  return { banks: banks.filter(b => chosen.has(b)), uncovered: [...open] };
}

/** What a payment flow depends on at a bank (spec 9 1.0.1 strong customer authentication, spec 7 confirm-funds). */
export interface Behaviour {
  /** The bank asked for strong customer authentication on a domestic payment; undefined when no payment could be made. */
  sca?: boolean;
  /** The bank confirms funds (true) or answers Not Implemented (false); undefined when neither was seen. */
  funds?: boolean;
}

const behaviourKey = (b: Bank, x: Behaviour) =>
  `${String(b.countryCode ?? '?')}, ` +
  `${x.sca === undefined ? 'authentication unknown' : x.sca ? 'strong customer authentication' : 'no strong customer authentication'}, ` +
  `${x.funds === undefined ? 'confirm-funds unknown' : x.funds ? 'confirm-funds' : 'no confirm-funds'}`;

/**
 * The banks the payment flows run at: the first bank of each distinct
 * behaviour (country, strong customer authentication or not, confirm-funds
 * or not), then, for every supportedServices value some candidate lists and
 * no chosen bank does, the first candidate that lists it (so each product is
 * tried somewhere). Keeps the candidates' order.
 */
export function oneBankPerBehaviour(candidates: readonly { bank: Bank; behaviour: Behaviour }[]): { bank: Bank; key: string }[] {
  const byKey = new Map<string, Bank>();
  for (const c of candidates) {
    const key = behaviourKey(c.bank, c.behaviour);
    if (!byKey.has(key)) byKey.set(key, c.bank);
  }
  const chosen = new Set(byKey.values());
  const listed = (b: Bank) => servicesKey(b).split('+').filter(s => s && s !== '?');
  const met = new Set([...chosen].flatMap(listed));
  for (const c of candidates) {
    const adds = listed(c.bank).filter(s => !met.has(s));
    if (!adds.length) continue;
    chosen.add(c.bank);
    adds.forEach(s => met.add(s));
  }
  return candidates.filter(c => chosen.has(c.bank)).map(c => ({ bank: c.bank, key: behaviourKey(c.bank, c.behaviour) }));
}
