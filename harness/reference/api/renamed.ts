// Quirk renamed-fields: the reference names, in its bodies, the values the
// spec leaves unshown otherwise than docs/profile.md does, the way another
// correct implementation may. A target description (examples/descriptions/
// renamed-fields.yaml) says where each one lives; the suites must pass with it.

/** Names in every answer body, at any depth: docs/profile.md's name, then the quirk's. */
const ANSWER_NAMES: Record<string, string> = {
  links: 'actions', href: 'url', fundsAvailable: 'available', sessionId: 'session', paymentId: 'payment', countryCode: 'country',
};

/** Names a request body takes at the top level, per operation: the quirk's name, then docs/profile.md's (which the quirk does not take). */
const REQUEST_NAMES: { path: RegExp; names: Record<string, string> }[] = [
  { path: /^\/payments\/[^/]+$/, names: { amount: 'instrumentedAmount', endToEndId: 'endToEndIdentification' } },
  { path: /^\/(confirm-funds|fundsconfirmations)$/, names: { account: 'iban' } },
];

/** An answer body with the quirk's names. */
export function renameAnswer(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(renameAnswer);
  if (!body || typeof body !== 'object') return body;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [ANSWER_NAMES[k] ?? k, renameAnswer(v)]));
}

/** A request body as the handlers read it: the quirk's names taken, docs/profile.md's names of them dropped. */
export function renameRequest(subpath: string, body: Record<string, unknown>): Record<string, unknown> {
  const names = REQUEST_NAMES.find(r => r.path.test(subpath))?.names;
  if (!names) return body;
  const out = { ...body };
  for (const [theirs, ours] of Object.entries(names)) {
    delete out[ours];
    if (theirs in body) out[ours] = body[theirs];
    delete out[theirs];
  }
  return out;
}
