// Drives a target's webhook sending for the `webhook` suite: creates one
// checkout per probe plan through the control API (docs/control-api.md), all
// at once so the probes run concurrently, creates the `late` checkout once the
// `held` one is in backoff, and waits until every chain is done. It talks to the
// target over HTTP only, like to any target.
import { randomBytes } from 'node:crypto';
import { setTimeout as pause } from 'node:timers/promises';
import { exchange } from '../http/exchange.ts';
import { HarnessError, unreachableError } from '../errors.ts';
import type { HttpEvidence } from '../results/model.ts';
import { Redactor } from '../report/redact.ts';
import { backoffUnjudged } from './checks/backoff.ts';
import { LONG_CHAIN_WAIT_MS } from './checks/long-chain.ts';
import { MAX_EXTRA_MS, waits5sUnjudged } from './checks/timeout.ts';
import { buildView, RETRY_WAIT_BOUND_MS, type RunView } from './checks/view.ts';
import { CONTROL_EXTENSIONS, type ControlExtension, LATE_PLAN, SUITE_PLANS, againAt, type CheckoutPlan, type SinkPlan } from './plan.ts';
import { whereOf } from '../places/event-positions.ts';
import type { Sink } from './server.ts';
import { LATE_PROBES } from './probes.ts';

export interface DriveOptions {
  sink: Sink;
  controlUrl: string;
  /** The api-key the target is asked to send (given in each checkout's webhook registration). */
  apiKey: string;
  /**
   * Keys of other shapes (spec 5.4: "any format"), handed out to the checkouts in
   * turn instead of `apiKey`; when absent every checkout gets `apiKey`.
   */
  keys?: readonly string[];
  plans?: readonly CheckoutPlan[];
  late?: CheckoutPlan;
  /** Upper bound of the whole drive in spec ms (default 15 spec minutes: a sender with one global queue serialises every chain). */
  capMs?: number;
  redactor?: Redactor;
  /**
   * How many more probes of one kind (a slow answer, a backoff chain) the drive
   * sends when the sink's own lateness blurred every measurement of a timing
   * check (default 2; 0 sends none).
   */
  again?: number;
  /** Floor of the timing tolerance in real ms the run is judged with (default 25, the contract's): the drive judges alike to know what to send again. */
  toleranceFloorMs?: number;
  /** Called as the drive starts and at each poll (1 spec second): what the drive still waits for. */
  onProgress?: (p: DriveProgress) => void;
  /** Ends the drive at its next wait (the run was stopped): it then rejects with an AbortError. */
  signal?: AbortSignal;
  /**
   * The optional checkout fields the target description says the control API
   * honours (description control.honours); the others are not sent. Absent:
   * every field is sent and the 201 echo tells which were taken.
   */
  honours?: readonly ControlExtension[];
  /**
   * Spec ms of silence after which the drive stops, no sender attempt being open (default RETRY_WAIT_BOUND_MS; run --retry-wait);
   * at least LONG_CHAIN_WAIT_MS when a plan is the long chain.
   */
  retryWaitMs?: number;
}

/** Where a drive stands; times in real ms. */
export interface DriveProgress { attempts: number; chains: number; pending: string[]; elapsedMs: number; capMs: number }

export interface DriveResult {
  plan: SinkPlan;
  /** Sink time (real ms) when the drive stopped watching. */
  observedUntilMs: number;
  stoppedBecause: 'complete' | 'idle' | 'cap';
  /** The control API exchanges, redacted, for the report. */
  control: HttpEvidence[];
}

/** Spec ms the second wave waits at most for the first wave's first attempts. */
const WAVE_WAIT_MS = 3_000;

/** Resolves once `n` attempts of the sender were answered (or it hung up), or after `realMs`; rejects on a stop. */
async function firstAttempts(sink: Sink, n: number, realMs: number, signal?: AbortSignal): Promise<void> {
  await new Promise<void>(resolve => {
    let off = () => {};
    const done = () => { clearTimeout(t); off(); signal?.removeEventListener('abort', done); resolve(); };
    const t = setTimeout(done, realMs);
    const test = () => { if (sink.stats().sender >= n) done(); };
    off = sink.onAttempt(test);
    signal?.addEventListener('abort', done);
    test();
  });
  signal?.throwIfAborted();
}

/**
 * How long to keep watching after every chain is complete and the last
 * attempt ended, for trailing duplicates (spec 6.3): 1 spec s, at least 200
 * real ms. A duplicate follows its original within the sender's own
 * turnaround (the reference's, under its duplicates quirk, within
 * milliseconds); a retry of an acknowledged event would come only after a
 * backoff of 10 spec s, past any grace. The floor keeps a loaded machine at a
 * compressed scale from ending the watch before a duplicate on its way.
 * Arbitrary; it is the only wait of a run the spec does not set.
 */
const GRACE_MS = 1_000;
const GRACE_FLOOR_REAL_MS = 200;

/**
 * When the sink counts as running on time: no lateness over CALM_LAG_MS in the
 * last CALM_WINDOW_MS (spec ms). A quarter of the allowance of waits-5s
 * (timeout.ts): a hang-up stamped then can be judged. Arbitrary window: two
 * polls' worth, long enough to see a burst of work has passed.
 */
const CALM_LAG_MS = MAX_EXTRA_MS / 4;
const CALM_WINDOW_MS = 2_000;
/**
 * Spec ms a timing probe waits at most for the sink to be calm; then it is sent
 * anyway (a busy machine may never be calm, and then the check says so). 10 s
 * fits before the `held` chain's 70 s of backoff ends, so waiting costs no time.
 */
const CALM_WAIT_MS = 10_000;

const isCalm = (sink: Sink) => sink.recentDelayMs(sink.clock.toReal(CALM_WINDOW_MS)) <= sink.clock.toReal(CALM_LAG_MS);

/** Resolves once the sink is calm, or after CALM_WAIT_MS; rejects on a stop. */
async function calm(sink: Sink, signal?: AbortSignal): Promise<void> {
  const until = sink.nowMs() + sink.clock.toReal(CALM_WAIT_MS);
  const step = Math.max(5, sink.clock.toReal(100));
  while (!isCalm(sink) && sink.nowMs() < until) await pause(step, undefined, { signal });
}

type AgainKind = 'hang-up' | 'backoff';

/**
 * Timing probes sent again: when every measurement of a kind (hang-ups on a
 * slow answer, retry delays at one place in a run of failures, growth) was
 * blurred by the sink's own lateness, another probe of that kind, up to `max`
 * per kind, sent once the sink is calm (or after CALM_WAIT_MS). One at a time:
 * the next only once the last one was measured (the attempt after its planned
 * answers came, or its chain ended).
 */
class Again {
  private readonly state = new Map<AgainKind, { sent: number; inFlight?: CheckoutPlan[]; wantedSince?: number }>();
  constructor(private readonly max: number) {}

  next(view: RunView, sink: Sink, pending: readonly string[]): CheckoutPlan[] {
    if (!this.max) return [];
    const out: CheckoutPlan[] = [];
    // Slow answers are sent again at each event position whose hang-ups were all blurred.
    const positions = waits5sUnjudged(view);
    // Runs of failures are sent again at each event position whose backoff was all blurred.
    const backoff = backoffUnjudged(view);
    const need: Record<AgainKind, number> = { 'hang-up': positions.length, 'backoff': backoff.failures };
    const now = sink.nowMs();
    for (const kind of ['hang-up', 'backoff'] as const) {
      const s = this.state.get(kind) ?? { sent: 0 };
      this.state.set(kind, s);
      if (s.inFlight) {
        // Measured once each has had the attempt after its planned answers, or its chain ended.
        const measuring = s.inFlight.some(p => {
          const c = view.checkouts.find(x => x.planned?.plan.name === p.name);
          const atPlace = p.failAt ? c?.attempts.filter(a => a.status !== undefined && whereOf(a.status) === p.failAt).length : c?.attempts.length;
          return (atPlace ?? 0) <= p.answers.length && pending.includes(p.name);
        });
        if (measuring) continue;
        delete s.inFlight;
      }
      if (!need[kind] || s.sent >= this.max) { delete s.wantedSince; continue; }
      s.wantedSince ??= now;
      if (!isCalm(sink) && now - s.wantedSince < sink.clock.toReal(CALM_WAIT_MS)) continue;
      const n = ++s.sent;
      s.inFlight = kind === 'hang-up' ? positions.map(p => againAt(p, n)) : backoff.at.map(p => againAt(p, n, kind, need[kind]));
      delete s.wantedSince;
      out.push(...s.inFlight);
    }
    return out;
  }
}

/** A checkout request without the optional fields the description says the control API does not honour (all kept when it says nothing). */
function withheld<R extends Partial<Record<ControlExtension, unknown>>>(request: R | undefined,
  honours: readonly ControlExtension[] | undefined): R | undefined {
  if (!request || !honours) return request;
  const out = { ...request };
  for (const f of CONTROL_EXTENSIONS) if (!honours.includes(f)) delete out[f];
  return out;
}

export async function driveCheckouts(o: DriveOptions): Promise<DriveResult> {
  const { sink } = o;
  const { clock } = sink;
  const redactor = o.redactor ?? new Redactor([o.apiKey, ...(o.keys ?? [])]);
  // 64 random bits in every path slot: a stranger cannot guess one and pass for the sender.
  const run = randomBytes(8).toString('hex');
  const plans = o.plans ?? SUITE_PLANS;
  const control: HttpEvidence[] = [];
  const keys = new Map<string, CheckoutPlan>();
  const scheduledFor = new Date(Date.now() + 30 * 24 * 3600_000).toISOString().slice(0, 10);

  const create = async (given: CheckoutPlan) => {
    const key = `${run}-${given.name}`;
    const apiKey = o.keys?.length ? o.keys[keys.size % o.keys.length] : o.apiKey;
    // What spec 2.2 says comes back in every body: this checkout's endToEndId and referenceId.
    const request = given.request && {
      ...given.request,
      endToEndId: `E2E-${run.slice(0, 8)}-${keys.size}`, referenceId: `order-${run.slice(0, 8)}-${given.name}`,
      ...(given.scheduled ? { scheduledDate: scheduledFor } : {}),
    };
    const plan: CheckoutPlan = { ...given, ...(request ? { request } : {}) };
    keys.set(key, plan);
    sink.expect(key, plan, apiKey);
    const ex = await exchange({
      method: 'POST', url: `${o.controlUrl.replace(/\/+$/, '')}/checkouts`, label: `create checkout '${plan.name}'`,
      body: { ...withheld(plan.request, o.honours), webhook: { url: sink.hookUrl(key), apiKey } },
    }, redactor);
    control.push(ex.evidence);
    if (!ex.response) throw unreachableError(ex.error, 'control API', o.controlUrl);
    const { status, json } = ex.response;
    const body = json as { id?: unknown; reason?: unknown; error?: unknown } | undefined;
    if (status >= 200 && status < 300 && typeof body?.id !== 'string')
      throw new HarnessError('PIS_BAD_CONFIG', `The control API at ${o.controlUrl} answered ${status} without an "id" to POST /checkouts: ` +
        'it must answer 201 {"id": ...} (docs/control-api.md).');
    if (!plan.forbidden && (status < 200 || status >= 300))
      throw new HarnessError('PIS_BAD_CONFIG', `The control API at ${o.controlUrl} refused the allowed checkout '${plan.name}' with ${status}: ` +
        `it must accept ${plan.request?.statuses.join(', ')} (docs/control-api.md).`);
    const echoed = CONTROL_EXTENSIONS.filter(f => request?.[f] !== undefined && (body as Record<string, unknown> | undefined)?.[f] === request[f]);
    sink.created(key, {
      status, createdMs: sink.nowMs(),
      ...(echoed.length ? { echoed } : {}),
      ...(o.honours ? { described: [...o.honours] } : {}),
      ...(typeof body?.id === 'string' ? { id: body.id } : {}),
      ...(typeof body?.reason === 'string' ? { reason: body.reason } : typeof body?.error === 'string' ? { reason: body.error } : {}),
    });
  };

  const startedMs = sink.nowMs();
  let lastActivity = startedMs;
  // Only the sender's attempts: a stranger posting to the sink must not hold the drive open.
  const off = sink.onAttempt((_d, stranger) => { if (!stranger) lastActivity = sink.nowMs(); });
  const cap = o.capMs ?? 15 * 60_000;
  // Before the first poll the drive waits too (the checkouts made, the first wave's first attempts, a calm
  // sink): the status line hears of it from the start, every chain still pending, and next at the first poll.
  const late = plans.some(p => p.role === 'held') ? (o.late ?? LATE_PLAN) : undefined;
  const everyChain = [...plans, ...(late ? [late] : [])].filter(p => !p.forbidden).map(p => p.name);
  o.onProgress?.({ attempts: sink.stats().attempts, chains: everyChain.length, pending: everyChain, elapsedMs: 0, capMs: clock.toReal(cap) });
  try {
    await Promise.all(plans.filter(p => !p.wave).map(create));
    await firstAttempts(sink, [...keys.values()].filter(p => !p.forbidden).length, clock.toReal(WAVE_WAIT_MS), o.signal);
    await calm(sink, o.signal);
    await Promise.all(plans.filter(p => p.wave === 2).map(create));
    const again = new Again(o.again ?? 2);
    const held = [...keys].find(([, p]) => p.role === 'held')?.[0];
    let lateCreated = !held || !(o.late ?? LATE_PLAN);
    const retryWait = o.retryWaitMs ?? RETRY_WAIT_BOUND_MS;
    // The long chain's last delays (160 s, 320 s) are longer than the usual wait for a retry.
    const idleWait = plans.some(p => p.longChain) ? Math.max(retryWait, LONG_CHAIN_WAIT_MS) : retryWait;
    // Polls at 1 spec second (at least 50 real ms): the chains' own steps are 4 s and more.
    const poll = Math.max(50, clock.toReal(1_000));
    let wait = poll;
    for (;;) {
      await pause(wait, undefined, { signal: o.signal });
      wait = poll;
      const now = sink.nowMs();
      const plan = sink.plan();
      const view = buildView(sink.attempts(), plan, { timeScale: clock.scale, observedUntilMs: now, retryWaitMs: retryWait,
        ...(o.toleranceFloorMs !== undefined ? { toleranceFloorMs: o.toleranceFloorMs } : {}) });
      if (!lateCreated) {
        const h = view.checkouts.find(c => c.planned?.plan.role === 'held');
        if (h?.attempts.some(a => !a.delivered && a.d.answer !== 'none')) { lateCreated = true; await create(o.late ?? LATE_PLAN); }
      }
      // A forbidden request a control API accepted is not waited for: what it delivers is judged, not how much.
      const chains = [...plan.values()].filter(p => p.control?.id && p.control.status < 300 && !p.plan.forbidden);
      const pending = chains.filter(p => {
        const c = view.checkouts.find(x => x.id === p.control!.id);
        // A 200 that came after 6 s, or trickled past 5 s, does not acknowledge (spec 6.6): a conforming
        // sender has hung up and will retry, so the chain is not done yet.
        return !c || !(p.plan.request?.statuses ?? [])
          .every(s => c.events.some(e => e.status === s && e.attempts.some(a => a.delivered && !LATE_PROBES.includes(a.d.probe))));
      }).map(p => p.plan.name);
      if (!lateCreated) pending.push((o.late ?? LATE_PLAN).name);
      const more = again.next(view, sink, pending);
      if (more.length) { await Promise.all(more.map(create)); continue; }
      const complete = !pending.length && sink.stats().senderOpen === 0;
      o.onProgress?.({ attempts: sink.stats().attempts, chains: chains.length + (lateCreated ? 0 : 1), pending, elapsedMs: now - startedMs,
        capMs: clock.toReal(cap) });
      if (complete) {
        // The grace counts from the last attempt's end, not from the poll that saw it: a trailing duplicate would follow that attempt.
        const graceEnd = lastActivity + Math.max(clock.toReal(GRACE_MS), GRACE_FLOOR_REAL_MS);
        if (now >= graceEnd) return { plan, observedUntilMs: now, stoppedBecause: 'complete', control };
        wait = Math.min(poll, graceEnd - now);
      }
      if (now - lastActivity >= clock.toReal(idleWait) && sink.stats().senderOpen === 0)
        return { plan, observedUntilMs: now, stoppedBecause: 'idle', control };
      if (now - startedMs >= clock.toReal(cap)) return { plan, observedUntilMs: now, stoppedBecause: 'cap', control };
    }
  } finally { off(); }
}
