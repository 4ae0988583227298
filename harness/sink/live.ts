// What `sink` prints while it listens, in the manner of `stripe listen`: one
// line per attempt as soon as it is over, with when it came, its checkout and
// status, what the sink answered and why, and whether the api-key was the
// registered one. Everything shown comes from a stranger's request as much as
// from the sender's, so it is cut short and its control characters are shown as escapes.
import type { DeliveryAttempt } from '../results/model.ts';
import { factsOf, type Fact } from './checks/facts.ts';
import { printable } from '../printable.ts';

/** Printable text only (no terminal escapes from a hostile body), at most `max` characters. */
function shown(s: string, max: number): string {
  const clean = printable(s.length > max ? s.slice(0, max) : s);
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

const text = (f: Fact | undefined) => f === undefined ? '' : typeof f === 'object' && f !== null ? f.described : String(f);

function answered(d: DeliveryAttempt): string {
  const why = d.probe === 'ok' ? '' : ` (${d.probe})`;
  if (d.answer === 'none') return `sender hung up after ${(((d.closedMs ?? d.arrivedMs) - d.arrivedMs) / 1000).toFixed(2)} s${why}`;
  if (d.answer === 'reset') return `reset${why}`;
  return `${d.answer}${why}`;
}

function key(d: DeliveryAttempt): string {
  const k = d.apiKeyCheck;
  if (!k) return '';
  if (k.verdict === 'registered') return 'api-key ok';
  if (k.verdict === 'missing') return 'api-key MISSING';
  return `api-key WRONG (${k.length} chars, sha256 ${k.sha256}…)`;
}

/** One line for a finished attempt; `t0` is the wall-clock time (ms) of the sink's start. */
export function formatAttemptLine(d: DeliveryAttempt, t0: number): string {
  const at = new Date(t0 + d.arrivedMs);
  const time = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}:` +
    `${String(at.getSeconds()).padStart(2, '0')}.${String(at.getMilliseconds()).padStart(3, '0')}`;
  const f = factsOf(d);
  const status = f.unreadable ? (d.probe === 'incomplete' || d.probe === 'too-large' ? '(body cut)' : '(not JSON)') :
    shown(text(f.status) || '(no status)', 24);
  const method = d.method ? `${shown(d.method, 10)} ` : '';
  return [
    time, `#${d.seq}`, shown(d.checkoutId, 40).padEnd(36), status.padEnd(20), `${method}→ ${answered(d)}`, key(d),
  ].filter(Boolean).join('  ');
}
