// receiver.auth: a delivery without the registered api-key is never accepted.
// Spec 5.4: "Every webhook request carries the key in the api-key header; the
// receiver verifies it to confirm the sender."
// The spec does not say how a receiver refuses, so 400, 401, 403, 404 or even a
// 5xx all pass; only a 2xx (the receiver took the event) fails. The issue names
// 200; any other 2xx is a success answer too and accepts the forged event just the same.
import { randomBytes } from 'node:crypto';
import type { CheckDef } from '../report/check.ts';
import { answerOf, timed } from './check.ts';
import type { Ctx } from './context.ts';
import { freshBody } from './plan.ts';

interface Probe { name: string; title: string; key: (real: string) => string | null }

/** A random key of the given length, never derived from the real one (the report shows it). */
function randomKey(length: number): string {
  let s = '';
  while (s.length < length) s += randomBytes(32).toString('base64url');
  return s.slice(0, Math.max(1, length));
}

const PROBES: Probe[] = [
  { name: 'missing-key', title: 'A delivery without the api-key header is refused', key: () => null },
  { name: 'wrong-key', title: 'A delivery with a wrong api-key is refused', key: () => `wrong-${randomKey(16)}` },
  { name: 'same-length-key', title: 'A delivery with a wrong api-key of the same length is refused', key: real => {
    let k = randomKey(real.length);
    while (k === real) k = randomKey(real.length);
    return k;
  } },
  { name: 'empty-key', title: 'A delivery with an empty api-key header is refused', key: () => '' },
];

/** One check per probe, in probe order. */
export const AUTH_CHECKS: readonly CheckDef[] = PROBES.map(p => ({
  id: `receiver.auth.${p.name}`, requirements: ['R5.4-receiver-verifies-key'], title: p.title, spec: '5.4',
  quote: 'Every webhook request carries the key in the api-key header; the receiver verifies it to confirm the sender.',
}));

/** The probes go out side by side (independent checkouts); results are emitted in a fixed order. */
export async function runAuth(ctx: Ctx): Promise<void> {
  const checks = await Promise.all(PROBES.map((p, i) => {
    return timed(AUTH_CHECKS[i], async () => {
      const d = await ctx.t.post(freshBody(ctx.ids), { kind: 'auth', label: p.title.replace(/ is refused$/, ''), apiKey: p.key(ctx.opts.apiKey) });
      const took = d.status !== undefined && d.status >= 200 && d.status < 300;
      if (!took) return { status: 'passed', message: `refused: ${answerOf(d)}` };
      return {
        status: 'failed', expected: 'any answer but 2xx (401, 403 or 400 are usual)', seen: answerOf(d),
        message: `the receiver accepted a delivery whose api-key it should have refused: ${answerOf(d)}`,
        evidence: [d.evidence],
      };
    });
  }));
  for (const c of checks) ctx.emit(c);
}
