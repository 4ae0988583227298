// Cases of the webhook analysis against the bundled reference implementation,
// shared by reference-*.test.ts (split in files so that they run in separate
// processes: one event loop for all of them would delay the senders' requests).
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { startReference } from '../../harness/reference/index.ts';
import type { ReferenceAttempt } from '../../harness/reference/control.ts';
import { FAULTS } from '../../harness/reference/catalog.ts';
import { startSink } from '../../harness/sink/server.ts';
import { driveCheckouts } from '../../harness/sink/drive.ts';
import { analyzeRun } from '../../harness/sink/checks/index.ts';
import { loadProofs } from '../../harness/requirements/load.ts';
import { webhookKeys } from '../../harness/sink/keys.ts';
import { LONG_CHAIN_PLAN, SUITE_PLANS, type CheckoutPlan, type SinkPlan } from '../../harness/sink/plan.ts';
import { watchStalls } from './stall.ts';
import { judgesMilliseconds } from '../helpers/priority.ts';

/**
 * 0.2 leaves 400 real ms between the short-timeout fault's 3 s and the 5 s
 * window, so a tolerance floor of 200 ms (eight times the contract's 25 ms: the
 * reference, the sink and the rest of the test suite share two cores, and one
 * event loop here) still tells every fault apart, but one.
 */
const SCALE = 0.2;
const FLOOR_MS = 200;
const KEY = 'ref-webhook-key-456';

export interface CaseSetup {
  scale: number; floorMs: number;
  /** Only some probes: then only the checks `judges` names must pass (the others may lack what they judge), and none may fail. */
  plans?: readonly CheckoutPlan[];
  judges?: RegExp;
}
const USUAL: CaseSetup = { scale: SCALE, floorMs: FLOOR_MS };

async function judge(faults: string[], setup: CaseSetup) {
  const ref = await startReference({ timeScale: setup.scale, faults, webhookApiKey: KEY });
  const sink = await startSink({ timeScale: setup.scale, apiKey: KEY });
  try {
    // A key of another shape for each checkout (spec 5.4: any format).
    const d = await driveCheckouts({ sink, controlUrl: ref.controlUrl, apiKey: KEY, keys: webhookKeys(), toleranceFloorMs: setup.floorMs,
      ...(setup.plans ? { plans: setup.plans } : {}) });
    const { checks } = analyzeRun(sink.attempts(), d.plan,
      { timeScale: setup.scale, apiKey: KEY, observedUntilMs: d.observedUntilMs, toleranceFloorMs: setup.floorMs });
    return { checks, drive: d, recorded: sink.attempts(), logged: ref.attempts(), plan: d.plan };
  } finally {
    await sink.close();
    await ref.close();
  }
}

/**
 * The 500 ms between a sender that gives up at 4.5 s and one that waits 5 s
 * need the contract's own tolerance (25 ms floor) and a gentler clock: 0.5,
 * where they are 250 real ms apart. Only the slow probes are driven, so the
 * case stays short (about 10 s).
 */
export const TIMEOUT_SETUP: CaseSetup = {
  scale: 0.5, floorMs: 25, plans: SUITE_PLANS.filter(p => p.answers.some(a => a.startsWith('slow-'))),
  judges: /^webhook\.(timeout\.|retry\.after-timeout$)/,
};
/**
 * The long chain alone (run --long-chains): its 630 spec s of backoff are 12.6 real s at 0.02, where the 200 ms
 * floor is 10 spec s of tolerance; only webhook.retry.long-chain must pass (the others lack what they judge), and none may fail.
 */
export const LONG_CHAIN_SETUP: CaseSetup = { scale: 0.02, floorMs: 200, plans: [LONG_CHAIN_PLAN], judges: /^webhook\.retry\.long-chain$/ };
/** Faults judged with a setup of their own (reference-timeout.test.ts, reference-long-chain.test.ts), not USUAL. */
export const OWN_SETUP: Record<string, CaseSetup> = {
  'webhook-timeout-4500ms': TIMEOUT_SETUP, 'webhook-timeout-4600ms-polled': TIMEOUT_SETUP, 'webhook-gives-up-after-6': LONG_CHAIN_SETUP,
};

/**
 * Faults that serialise every checkout (one queue for all, or for all retries): what webhook.parallel needs and no
 * more. Answers held open (slow-4s, slow-6s) for attempts to overlap, failures in backoff (status-500, reset) that must
 * not hold the other checkouts, a chain of three failures (held) to compare a held retry's delay with, and two clean
 * checkouts. Sent one after another, the 40-odd plans of the suite took 84 s for the two faults here and 84 s for the
 * sender case with one queue (test/sink/sender-cases.ts), 22 s each with these.
 */
const PARALLEL_NAMES = ['clean-normal', 'clean-batch', 'held', 'answer-500', 'reset', 'answer-after-4s', 'answer-after-6s'];
export const PARALLEL_PLANS = SUITE_PLANS.filter(p => PARALLEL_NAMES.includes(p.name));
const SERIALISED: CaseSetup = { ...USUAL, plans: PARALLEL_PLANS };
const LIGHTER: Record<string, CaseSetup> = { 'webhook-global-queue': SERIALISED, 'webhook-global-retry-queue': SERIALISED };

export const WEBHOOK_FAULTS = FAULTS.filter(f => f.prefix.startsWith('webhook.') && !OWN_SETUP[f.name]);
const PROOFS = loadProofs().faults;

/**
 * What one judgement found wrong, and the longest stall of this process meanwhile. `unjudged`: every problem is a
 * check that was not run, with the figures that could not tell (a timing blurred by a busy machine), or a failure of
 * a clean case whose attempts reached the sink apart from how the reference sent them by more than the tolerance.
 */
export interface Outcome {
  problems: string[]; stall: number; unjudged?: boolean;
  /** A clean case's: every problem is a check left not run (none failed, the sink saw what the reference sent). */
  notRunOnly?: boolean;
}
export interface Case { title: string; floorMs: number; judge(): Promise<Outcome> }

async function watched(body: () => Promise<string[] | { problems: string[]; unjudged: boolean; notRunOnly?: boolean }>): Promise<Outcome> {
  const watch = watchStalls();
  try {
    const found = await body();
    return { ...(Array.isArray(found) ? { problems: found } : found), stall: watch.stop() };
  } catch (e) {
    return { problems: [`the run could not be made: ${(e as Error)?.message ?? e}`], stall: watch.stop() };
  }
}

/**
 * The clean reference, or one quirk: every webhook check passes (those `setup.judges` names, when it drives only some
 * probes), and the sink saw what the reference sent.
 */
/**
 * Quirks under which a check is rightly not run: the target does not offer
 * what it needs, and says so the way docs/control-api.md asks.
 */
const NOT_RUN_UNDER: Record<string, { ids: RegExp; why: RegExp }> = {
  'control-first-fields': { ids: /^webhook\.(body\.end-to-end-id|body\.reference-id|states\.sca-payment-created)$/, why: /did not echo/ },
  // Retries past the run's wait: not judged (spec 6.5 sets no maximum delay), never failed.
  // Delays drawn anew: growth from first to last may be too small to tell from jitter.
  'webhook-decorrelated-jitter': { ids: /^webhook\.backoff\.growth$/, why: /cannot tell apart/ },
  // The events after a failure still in backoff do not come: the acknowledgement gate at those positions is not reached.
  'webhook-long-backoff': { ids: /^webhook\.(retry\.after-500|retry\.after-timeout|backoff\.growth|states\.every-status-sent|order\.ack-gated)$/,
    why: /--retry-wait|no event failed 3 times|not reached/ },
};

/**
 * Every attempt the reference logged reached the sink, and nothing else did. An attempt whose request never
 * reached the sink's HTTP server is the network's, not the sink's: one that never got a connection, or that
 * ended in a connection error (a socket closed under the request). It may be missing from the sink's record;
 * the sink cannot have answered it, so a sink that drops what it answered is still caught.
 */
export function sameAttempts(recorded: readonly { checkoutId?: string; body: string }[],
  logged: readonly Pick<ReferenceAttempt, 'checkoutId' | 'status' | 'sentAtMs' | 'outcome' | 'written' | 'error' | 'attempt'>[],
  plan: SinkPlan): string[] {
  const problems: string[] = [];
  const ids = new Set([...plan.values()].map(p => p.control?.id).filter((id): id is string => !!id));
  const strangers = recorded.filter(a => !a.checkoutId || !ids.has(a.checkoutId)).length;
  if (strangers) problems.push(`the sink recorded ${strangers} attempts for no checkout the drive made`);
  const lostOnTheWay = (a: (typeof logged)[number]) => !a.written || a.outcome === 'error';
  for (const id of ids) {
    const sent = logged.filter(a => a.checkoutId === id).sort((a, b) => a.sentAtMs - b.sentAtMs);
    const got = recorded.filter(a => a.checkoutId === id).map(a => (JSON.parse(a.body) as { status: string }).status);
    const wrong = () => `checkout ${id}: the sink got ${got.join(', ') || 'nothing'}, the reference sent ${
      sent.map(a => `${a.status}${a.outcome === 'delivered' ? '' : ` (${a.written ? '' : 'never written, '}${a.error ?? a.outcome})`}`).join(', ')}`;
    // Both in order, the sink's a subsequence of the reference's that leaves out only attempts lost on the way.
    const failed = new Set<string>();
    const matches = (i: number, g: number): boolean => {
      if (i === sent.length) return g === got.length;
      if (failed.has(`${i},${g}`)) return false;
      const ok = (got[g] === sent[i]!.status && matches(i + 1, g + 1)) || (lostOnTheWay(sent[i]!) && matches(i + 1, g));
      if (!ok) failed.add(`${i},${g}`);
      return ok;
    };
    if (!matches(0, 0)) problems.push(wrong());
  }
  return problems;
}

/**
 * For a failed check: the checkout its message names, as the reference sent it and as the sink stamped it, in real
 * ms from each side's first attempt of that checkout (two clocks: only differences compare). `skewMs`: the most that
 * a gap between two of its attempts, or an attempt's own length (sent to ended; stamped to answered or closed),
 * differs between the sides, time the requests spent between the two (0 when an attempt was lost on the way, so
 * that they do not pair). A sender that hung up after its 5 s shows 5 s on its side; a sink that stamped the
 * request late shows less on its own.
 */
type Recorded = { checkoutId?: string; body: string; arrivedMs: number; answeredMs?: number; closedMs?: number; lagMs?: number; answer: unknown };

/** The skew of one checkout's attempts (see timeline), `sent` in the reference's order; 0 when the two sides do not pair. */
function skewOf(sent: readonly ReferenceAttempt[], got: readonly Recorded[], scale: number): number {
  let skewMs = 0;
  if (sent.length === got.length) for (let i = 0; i < sent.length; i++) {
    if (i > 0) skewMs = Math.max(skewMs, Math.abs((sent[i]!.sentAtMs - sent[i - 1]!.sentAtMs) * scale - (got[i]!.arrivedMs - got[i - 1]!.arrivedMs)));
    const end = got[i]!.answeredMs ?? got[i]!.closedMs;
    if (end !== undefined) skewMs = Math.max(skewMs, Math.abs((sent[i]!.endedAtMs - sent[i]!.sentAtMs) * scale - (end - got[i]!.arrivedMs)));
  }
  return skewMs;
}

/**
 * The most skewed checkout of a run: where the sink's view of the reference's timing differed most from how the
 * reference sent it (real ms), and which checkout that was. A check that judged timing on such a run may have passed
 * a fault the sink saw blurred (a capped backoff's 10 s read 10.2 to 11.8 s, taken for jitter, at load 9).
 */
export function runSkew(scale: number, logged: readonly ReferenceAttempt[], recorded: readonly Recorded[]): { skewMs: number; checkoutId?: string } {
  let worst: { skewMs: number; checkoutId?: string } = { skewMs: 0 };
  const ids = new Set(logged.map(a => a.checkoutId));
  for (const id of ids) {
    const skewMs = skewOf(logged.filter(a => a.checkoutId === id).sort((a, b) => a.sentAtMs - b.sentAtMs),
      recorded.filter(a => a.checkoutId === id), scale);
    if (skewMs > worst.skewMs) worst = { skewMs, ...(id ? { checkoutId: id } : {}) };
  }
  return worst;
}

function timeline(message: string, scale: number, logged: readonly ReferenceAttempt[],
  recorded: readonly Recorded[]) {
  const id = /checkout ([0-9a-f-]{8,})/i.exec(message)?.[1];
  const sent = logged.filter(a => a.checkoutId === id).sort((a, b) => a.sentAtMs - b.sentAtMs);
  const got = recorded.filter(a => a.checkoutId === id);
  if (!id || !sent.length || !got.length) return { text: '', skewMs: 0 };
  const ms = (n: number) => n.toFixed(1);
  const s0 = sent[0]!.sentAtMs * scale, a0 = got[0]!.arrivedMs;
  const skewMs = skewOf(sent, got, scale);
  const status = (body: string) => { try { return (JSON.parse(body) as { status?: string }).status; } catch { return '?'; } };
  const ref = sent.map(a => `${a.status} #${a.attempt} at ${ms(a.sentAtMs * scale - s0)}, ended ${ms(a.endedAtMs * scale - s0)} (${a.outcome})`);
  const text = `; the reference sent: ${ref.join('; ')}` +
    `; the sink got: ${got.map(a => `${status(a.body)} at ${ms(a.arrivedMs - a0)}, answered ${a.answeredMs === undefined ? '-' : ms(a.answeredMs - a0)} ` +
      `(${String(a.answer)}, lag ${a.lagMs ?? '?'})`).join('; ')} (real ms)`;
  return { text, skewMs };
}

export function cleanCase(quirk: string, setup = USUAL): Case {
  // The long chain is driven on request only (run --long-chains): without it its check is not selected.
  const optIn = (c: { id: string; status: string; skipKind?: string }) =>
    c.id === 'webhook.retry.long-chain' && c.skipKind === 'not-selected' && !(setup.plans ?? SUITE_PLANS).some(p => p.longChain);
  const excused = (c: { id: string; status: string; message?: string; skipKind?: string }) => c.status === 'skipped' && (optIn(c) ||
    (!!NOT_RUN_UNDER[quirk]?.ids.test(c.id) && !!NOT_RUN_UNDER[quirk]?.why.test(c.message ?? '')));
  const due = (c: { id: string; status: string; message?: string; skipKind?: string }) =>
    c.status === 'failed' || ((setup.judges?.test(c.id) ?? true) && c.status !== 'passed' && !excused(c));
  return {
    title: `reference ${quirk || 'clean'}: every webhook check passes${NOT_RUN_UNDER[quirk] ? ' or is not run for what it does not offer' : ''}` +
      `${setup === USUAL ? '' : ` (time scale ${setup.scale})`}`,
    floorMs: setup.floorMs,
    judge: () => watched(async () => {
      const { checks, drive, recorded, logged, plan } = await judge(quirk ? [quirk] : [], setup);
      const wrong = checks.filter(due).map(c => ({ c, t: c.status === 'failed' ? timeline(c.message ?? '', setup.scale, logged, recorded) : undefined }));
      const problems = [...wrong.map(({ c, t }) => `${c.id} ${c.status}: ${c.message} (drive stopped: ${drive.stoppedBecause})${t?.text ?? ''}`),
        ...sameAttempts(recorded, logged, plan)];
      // The reference is right by construction: a failure whose attempts reached the sink further apart or closer
      // together than the reference sent them, by more than the tolerance, measured the machine, not the reference.
      const blurred = ({ c, t }: (typeof wrong)[number]) => c.status === 'skipped' || (t?.skewMs ?? 0) > setup.floorMs;
      return { problems, unjudged: problems.length === wrong.length && wrong.every(blurred),
        notRunOnly: problems.length === wrong.length && wrong.every(({ c }) => c.status === 'skipped') };
    }),
  };
}

/**
 * Whether a fault case's wrong outcome measured the machine rather than the checks, so that it is judged again alone:
 * every named check that did not fail was not run (its figures could not tell), or passed on a run where some
 * checkout reached the sink skewed past the tolerance (`runSkewMs`); every failure outside the fault's place met such
 * a skew itself; and the fault was seen at its level, or a named check was missed (else the case is plainly wrong).
 */
export function faultUnjudged(o: {
  missed: readonly string[]; outsideSkewsMs: readonly number[]; levelMet: boolean; runSkewMs: number; floorMs: number;
}): boolean {
  return o.missed.every(status => status === 'skipped' || (status === 'passed' && o.runSkewMs > o.floorMs)) &&
    o.outsideSkewsMs.every(ms => ms > o.floorMs) && (o.levelMet || o.missed.length > 0);
}

/** One webhook fault of catalog.yaml: every check proofs.yaml names fails, one at the fault's level, nothing outside its prefix. */
export function faultCase(f: (typeof FAULTS)[number], setup = OWN_SETUP[f.name] ?? LIGHTER[f.name] ?? USUAL): Case {
  const named = PROOFS[f.name]?.fails ?? [];
  return {
    title: `reference with ${f.name}: ${named.join(', ') || f.prefix} fails, nothing outside ${f.prefix}`,
    floorMs: setup.floorMs,
    judge: () => watched(async () => {
      if (!PROOFS[f.name]) return [`fault ${f.name} has no entry under faults in contracts/proofs.yaml`];
      const { checks, recorded, logged } = await judge([f.name], setup);
      const failed = checks.filter(c => c.status === 'failed');
      const show = failed.map(c => `${c.id}: ${c.message}`).join('; ') || 'no check failed';
      const missed = named.filter(id => !failed.some(c => c.id === id));
      const outside = failed.filter(c => !c.id.startsWith(`${f.prefix}.`))
        .map(c => ({ c, t: timeline(c.message ?? '', setup.scale, logged, recorded) }));
      const levelMet = failed.some(c => c.id.startsWith(`${f.prefix}.`) && c.level === f.level);
      const problems = [
        // With what the check said: a missed fault's message holds the figures it judged (a retry taken for a late one).
        ...missed.map(id => {
          const c = checks.find(x => x.id === id);
          return `${id} did not fail (named in proofs.yaml): ${c ? `${c.status}: ${c.message ?? '(no message)'}` : 'not in the results'}; failed: ${show}`;
        }),
        ...outside.map(({ c, t }) => `${c.id} failed, outside ${f.prefix}: ${c.message}${t.text}`),
        ...(levelMet ? [] : [`no ${f.level} check under ${f.prefix} failed; failed: ${show}`]),
      ];
      // As for a clean case: a named check that could not judge (not run, with its figures), or a failure outside the
      // fault's place whose attempts reached the sink apart from how the reference sent them by more than the
      // tolerance, measured the machine: the case is judged again alone, where the proof must hold in full. So did a
      // named check that passed on a run where some checkout reached the sink that skewed: the blur may have hidden
      // the fault (a capped backoff's delays read 10.2 to 11.8 s, taken for jitter).
      const skew = runSkew(setup.scale, logged, recorded);
      const unjudged = faultUnjudged({ missed: missed.map(id => checks.find(c => c.id === id)?.status ?? 'absent'),
        outsideSkewsMs: outside.map(({ t }) => t.skewMs), levelMet, runSkewMs: skew.skewMs, floorMs: setup.floorMs });
      if (missed.length && skew.skewMs > setup.floorMs)
        problems.push(`(the sink saw checkout ${skew.checkoutId} up to ${skew.skewMs.toFixed(0)} ms apart from how the reference sent it)`);
      return { problems, unjudged };
    }),
  };
}

/**
 * How far apart the cases of one file begin (real ms). Each drive opens its checkouts' first attempts at once, about
 * 45 new connections from the reference to the sink, both in this process. Begun together, 12 cases made about 540,
 * and the sink stamped some of them 245 to 470 ms after the reference wrote them while its timers, and so its lag
 * monitor, ran within 12 to 52 ms of time: a sender that counts its backoff from its send (webhook-backoff-from-start)
 * then read 1.2 to 2.3 spec s short at time scale 0.2. Apart, each burst is about 45 (arbitrary: longer than a burst
 * takes on a busy machine, short against a case's 20 s).
 */
const STAGGER_MS = 500;

/**
 * Judges every case side by side, each begun STAGGER_MS after the one before. A case whose outcome was wrong while this
 * process stalled past its tolerance could not be judged, and neither could a
 * clean case whose only problems are checks not run (a gentle backoff read
 * x1.29 where it grows x1.44, under load, with no stall of this process past
 * its tolerance: the sender's lateness blurred it) or failures whose attempts
 * reached the sink further apart or closer together than the reference sent
 * them (its first attempt stamped 245 to 470 ms after it was written, the
 * retry at once): it runs once more, after the others and alone (a quieter
 * schedule), and then passes or fails on that run, naming both stalls. So is
 * a fault case whose named checks that did not fail were not run, and whose
 * failures outside its place met such a blur (a trickled answer the reference
 * waited out for its 5 s, read by the sink as a hang-up after 3.36 s at load
 * 11). A case with another problem, or whose sink saw the reference's own
 * timing, is judged again only after a stall. A clean case whose only problems
 * are checks left not run, on both runs while this process stalled past its
 * tolerance, is skipped with their reasons and both stalls, as the showcase
 * tests skip a run too busy to judge (stall.ts, tooBusyToJudge): it neither
 * passes what was not judged nor fails on the machine's load (the quirk
 * webhook-backoff-gentle, growth read x1.33 at stalls of 299 and 253 ms
 * against 200). A fault case is never skipped: a missed fault fails.
 */
/**
 * Why a case is skipped: both its runs stalled this process past `floorMs` and the second left checks not run and
 * nothing else wrong (only a clean case says so: a fault case never sets notRunOnly); else undefined.
 */
export function tooBusyForCase(one: Outcome, two: Outcome | undefined, floorMs: number): string | undefined {
  if (!two || one.stall <= floorMs || two.stall <= floorMs || !two.notRunOnly || !two.problems.length) return undefined;
  return `the machine was too busy to judge timing: this process stalled ${one.stall.toFixed(0)} ms, then ${two.stall.toFixed(0)} ms ` +
    `alone, past the ${floorMs} ms tolerance, and only these checks were left not run: ${two.problems.join('; ')}`;
}

export async function judgeAll(t: TestContext, cases: Case[]): Promise<void> {
  const first = await Promise.all(cases.map((c, i) => delay(i * STAGGER_MS).then(() => c.judge())));
  const again: (Outcome | undefined)[] = [];
  for (const [i, c] of cases.entries())
    again[i] = first[i]!.problems.length && (first[i]!.stall > c.floorMs || first[i]!.unjudged) ? await c.judge() : undefined;
  for (const [i, c] of cases.entries()) {
    await t.test(c.title, tc => {
      const [one, two] = [first[i]!, again[i]];
      tc.diagnostic(`longest stall of this process while judged: ${one.stall.toFixed(0)} ms${two ? `, then ${two.stall.toFixed(0)} ms alone` : ''}` +
        ` (its scheduling priority ${judgesMilliseconds() ? 'raised' : 'unchanged: raising it is not permitted here'})`);
      if (two)
        tc.diagnostic(`judged again alone: the first run ${one.unjudged ? 'could not judge every check' : 'stalled'} (${one.stall.toFixed(0)} ms, ` +
          `tolerance ${c.floorMs} ms) and found: ${one.problems.join('; ')}`);
      const last = two ?? one;
      const busy = tooBusyForCase(one, two, c.floorMs);
      if (busy) { tc.skip(busy); return; }
      const stalled = two && two.stall > c.floorMs ? ` (this process stalled ${one.stall.toFixed(0)} ms, then ${two.stall.toFixed(0)} ms alone, ` +
        `past the ${c.floorMs} ms tolerance: the machine was too busy to judge timing)` : '';
      assert.deepEqual(last.problems, [], `${c.title}${stalled}`);
    });
  }
}
