// One certification run: plan, pre-flight, then the phases in an order chosen
// so that one fault shows under one prefix: accepts first (it also tells what a
// valid delivery gets), robustness last (a receiver that dies on garbage would
// fail everything after it).
import { HarnessError } from '../errors.ts';
import type { CheckResult } from '../results/model.ts';
import type { Redactor } from '../report/redact.ts';
import { runAccepts } from './accepts.ts';
import { runAuth } from './auth.ts';
import { runConcurrency } from './concurrency.ts';
import { successFrom, VALID_KINDS, type Ctx } from './context.ts';
import { runIdempotency } from './idempotency.ts';
import { runLatency } from './latency.ts';
import { budget, type SenderOptions } from './options.ts';
import { acceptsPlan, Ids, planSize, type PlannedCheckout, type PlanSize } from './plan.ts';
import { preflight } from './preflight.ts';
import { runRobustness } from './robustness.ts';
import { Transport, type Delivery } from './transport.ts';
import { answerOf } from './check.ts';
import { failed, notRun, passed, toResult, type Outcome } from '../check/outcome.ts';
import { overHttps, OVER_HTTPS } from './https.ts';
import { RECEIVER_REGISTRY } from './checks.ts';
import { STAYS_UP } from './robustness.ts';

export interface Plan { ids: Ids; accepts: Record<string, PlannedCheckout[]>; size: PlanSize }

/** Decides every body and counts the requests; refuses a plan larger than --max-requests. */
export function makePlan(opts: SenderOptions): Plan {
  const ids = new Ids();
  const accepts = acceptsPlan(ids);
  const size = planSize(accepts, opts.concurrency, Boolean(opts.stateUrl));
  if (size.total > opts.maxRequests)
    throw new HarnessError('PIS_BAD_FLAG', `The plan needs ${size.total} requests but --max-requests is ${opts.maxRequests}: ` +
      `raise --max-requests to ${size.total} or lower --concurrency (each parallel checkout costs ${size.concurrency / opts.concurrency} requests).`);
  return { ids, accepts, size };
}

/** "207 requests will go to URL (38 accepts, ...)". */
export function planLine(plan: Plan, opts: SenderOptions): string {
  const s = plan.size;
  return `${s.total} requests will go to ${opts.url} (accepts ${s.accepts}, auth ${s.auth}, idempotency ${s.idempotency}, ` +
    `concurrency ${s.concurrency} as ${opts.concurrency} parallel checkouts, robustness ${s.robustness})`
    + ', after a connection check' + (s.stateReads ? `, plus at least ${s.stateReads} reads of ${opts.stateUrl}` : '') + `; time scale ${opts.timeScale}.`;
}

export interface CertifyHooks {
  /** The receiver answered the pre-flight: deliveries are about to go out (the CLI opens its report here). */
  ready?(): void;
  /** Every finished check, in order (the CLI writes it to the report and prints a line). */
  check(c: CheckResult): void;
  /** A phase starts; `sent` of `total` deliveries are done. */
  phase(name: string, sent: number, total: number): void;
  /** Every delivery sent (for a progress line during long phases). */
  sent?(sent: number, total: number): void;
  /** A pause the service would make starts: how long, and why. */
  pause?(ms: number, why: string): void;
}

/**
 * Runs the phases and hands every finished check to `hooks.check`. `stop`
 * (a stop signal) ends the run at once: exchanges in flight are cut and no
 * check is emitted after it; the caller reports the run as interrupted.
 */
export async function certify(opts: SenderOptions, plan: Plan, redactor: Redactor, hooks: CertifyHooks, stop?: AbortSignal): Promise<void> {
  const t = new Transport(opts, redactor, n => hooks.sent?.(n, plan.size.total), performance.now() + budget(opts).ms);
  t.onPause = (ms, why) => hooks.pause?.(ms, why);
  const onStop = () => t.stop('the run was stopped by a signal');
  stop?.addEventListener('abort', onStop, { once: true });
  try {
    await preflight(opts.url, opts.insecure);
    hooks.ready?.();
    const ctx: Ctx = { t, ids: plan.ids, opts, success: successFrom([]), emit: (def, outcome, durationMs = 0) => {
      // A check cut off by a stop signal has no result; the report lists it as not run.
      if (!stop?.aborted) hooks.check(toResult(RECEIVER_REGISTRY.get(def.id), outcome, durationMs));
    } };
    const phase = (name: string) => hooks.phase(name, t.count, plan.size.total);

    ctx.emit(OVER_HTTPS, overHttps(opts));
    const alone = () => t.log.filter(d => VALID_KINDS.has(d.kind));
    const phases: [string, () => Promise<unknown>][] = [
      ['accepts: every body the service may send, a few checkouts at a time', async () => {
        ctx.success = successFrom(await runAccepts(ctx, plan.accepts), t.timing.limitMs + t.timing.toleranceMs);
      }],
      ['auth: deliveries without the right api-key', () => runAuth(ctx)],
      ['idempotency: the same event again, and after a pause', () => runIdempotency(ctx)],
      [`concurrency: ${opts.concurrency} checkouts in parallel`, () => runConcurrency(ctx)],
    ];
    let stopped: { after: Delivery; refused: Delivery } | undefined;
    for (const [name, run] of phases) {
      phase(name);
      await run();
      if (stop?.aborted) return;
      if ((stopped = await stoppedNow(t, opts))) break;
    }
    phase('latency');
    await runLatency(ctx, alone());
    if (stopped) {
      // A receiver that died before the garbage: one finding, under robustness, instead of every later check failing.
      ctx.emit(STAYS_UP, stoppedCheck(stopped));
    } else {
      // What garbage does to it is judged by the robustness checks that follow.
      ctx.emit(STAYS_UP, t.log.some(d => d.status !== undefined)
        ? passed('the receiver accepted connections and answered through every phase before the garbage')
        : notRun('not judged: the receiver answered no delivery at all, which receiver.latency reports'));
      phase('robustness: garbage, each followed by a valid delivery');
      await runRobustness(ctx);
    }
    hooks.phase('done', t.count, plan.size.total);
  } finally {
    stop?.removeEventListener('abort', onStop);
    await t.close();
  }
}

/** Spec 6.4: "The receiver must answer each request with status code 200" - also every request after this one. */
function stoppedCheck(down: { after: Delivery; refused: Delivery }): Outcome {
  return failed(`the receiver stopped at "${down.refused.label}" (${answerOf(down.refused)}) and has refused every connection since; ` +
      `the last delivery it answered was "${down.after.label}" (${answerOf(down.after)}); the run stopped there, so later checks were not made`,
  'every delivery answered', `${down.refused.label}: ${answerOf(down.refused)}`, [{ ...down.refused.evidence, primary: true }, down.after.evidence]);
}

/** The receiver stopped when a connection failed after it had answered and a fresh connection is refused now. */
async function stoppedNow(t: Transport, opts: SenderOptions): Promise<{ after: Delivery; refused: Delivery } | undefined> {
  const b = t.broken;
  if (!b) return undefined;
  try { await preflight(opts.url, opts.insecure); return undefined; } catch { return b; }
}
