// webhook.retry.long-chain: an event that failed LONG_CHAIN_FAILURES times in a
// row is attempted again. Spec 6.4: "Any other status code triggers another
// attempt to deliver the same event"; 6.7: "An event not delivered within 7
// days is lost", so a sender keeps retrying for 7 days and one that gives up
// after a few attempts loses events the spec keeps. The chain takes about 630
// spec s, so it is driven on request only (run --long-chains, sink
// --long-chains); without it the check is not selected and says how to run it.
import type { CheckDef } from '../../check/def.ts';
import { notRun, notSelected, passed, type Outcome } from '../../check/outcome.ts';
import { LONG_CHAIN_FAILURES } from '../plan.ts';
import { deliveries, verdict, type Finding } from './result.ts';
import { nextOfEvent, sec, strangersNaming, type AttemptView, type CheckoutView, type RunView } from './view.ts';

export const LONG_CHAIN: CheckDef = {
  id: 'webhook.retry.long-chain', requirements: ['R6.7-retried-until-lost'],
  title: `An event that failed ${LONG_CHAIN_FAILURES} times in a row is attempted again: the sender does not give up early`, spec: '6.7',
  quote: 'An event not delivered within 7 days is lost.',
};

/**
 * Spec ms the drive (drive.ts) and this check wait after a failed attempt of the
 * long chain for the next one: the last delay of a doubling backoff from 10 s
 * is 320 s, 400 s with 25 % jitter; twice that, as RETRY_WAIT_BOUND_MS is
 * twice the suite's longest mandated delay. Arbitrary, like that bound.
 */
export const LONG_CHAIN_WAIT_MS = 800_000;

/** The flag that sends the long chain, in `run` and `sink` alike. */
const LONG_CHAIN_REMEDY = 'give --long-chains';

const NOT_ASKED = `not selected: a chain of ${LONG_CHAIN_FAILURES} failures of one event takes about 630 spec s of backoff ` +
  '(10 + 20 + 40 + 80 + 160 + 320 s at a doubling delay), so it is driven only on request; ' +
  `${LONG_CHAIN_REMEDY} to see whether the sender gives up on an event before the 7 days of spec 6.7`;

type Judgement = { ok: string; attempts: AttemptView[] } | { finding: Finding } | { notRun: string };

/** One long-chain checkout: its first event failed LONG_CHAIN_FAILURES times in a row, each followed by another attempt. */
function judgeChain(view: RunView, c: CheckoutView): Judgement {
  const e = c.events[0];
  if (!e) return { notRun: `the long-chain checkout ${c.id} sent no readable event` };
  const end = e.attempts.findIndex(a => a.delivered);
  const fails = end < 0 ? e.attempts : e.attempts.slice(0, end);
  const what = `event ${e.status} of checkout ${c.id}`;
  if (fails.length >= LONG_CHAIN_FAILURES && e.attempts.length > LONG_CHAIN_FAILURES) {
    const [first, next] = [e.attempts[0]!, e.attempts[LONG_CHAIN_FAILURES]!];
    const delays = fails.slice(0, LONG_CHAIN_FAILURES).map(a => sec(nextOfEvent(c, a)!.arrived - a.end)).join(' → ');
    return { ok: `${what} failed ${LONG_CHAIN_FAILURES} times in a row and was attempted again each time: attempt ${LONG_CHAIN_FAILURES + 1} ` +
      `came ${sec(next.arrived - first.arrived)} after the first (delays ${delays})`, attempts: e.attempts };
  }
  const last = fails.at(-1);
  if (!last) return { notRun: `${what} was not failed by the sink, so there was no chain to follow` };
  const n = fails.length;
  if (strangersNaming(view, c.id, last.end).length)
    return { notRun: `failed attempt ${n} of ${what} was followed only by attempts without the registered api-key, which are not counted as the ` +
      'sender\'s (see webhook.auth.api-key)' };
  const later = c.events.slice(1).find(ev => ev.attempts.some(x => x.arrived >= last.end));
  if (later) return { finding: {
    message: `${what} failed ${n} times in a row and was not attempted again: the sender went on to ${later.status} ` +
      `${sec(later.attempts[0]!.arrived - last.end)} after attempt ${n}, ${sec(last.end - e.attempts[0]!.arrived)} after the first; ` +
      'the event is lost long before 7 days',
    attempts: [...fails, later.attempts[0]!], at: last,
  } };
  const watched = view.until - last.end;
  if (watched >= LONG_CHAIN_WAIT_MS)
    return { notRun: `no attempt followed failed attempt ${n} of ${what} within ${sec(watched)}, nor a later event: spec 6.5 sets no maximum ` +
      `delay, so a longer backoff cannot be told from giving up; watch longer to wait for it (run --retry-wait above ${LONG_CHAIN_WAIT_MS / 1000}, ` +
      'or a longer sink --duration)' };
  return { notRun: `the sink stopped watching ${sec(watched)} after failed attempt ${n} of ${what}, before ${sec(LONG_CHAIN_WAIT_MS)}: too early to tell` };
}

export function checkLongChain(view: RunView): Outcome {
  const chains = view.checkouts.filter(c => c.planned?.plan.longChain);
  if (!chains.length && view.opts.longChains)
    return notRun('the long chain was asked for, but no checkout got it: the sink gives it to the first new checkout it sees');
  if (!chains.length) return { ...notSelected(NOT_ASKED), remedy: LONG_CHAIN_REMEDY };
  const judged = chains.map(c => judgeChain(view, c));
  const findings = judged.flatMap(j => ('finding' in j ? [j.finding] : []));
  const ok = judged.flatMap(j => ('ok' in j ? [j] : []));
  if (!findings.length && !ok.length) return notRun(judged.map(j => ('notRun' in j ? j.notRun : '')).join('; '));
  if (findings.length)
    return verdict(`another attempt after each of ${LONG_CHAIN_FAILURES} failures in a row (spec 6.4), until the 7 days of spec 6.7`,
      findings, '');
  return passed(ok.map(j => j.ok).join('; '), [deliveries(ok.flatMap(j => j.attempts))]);
}
