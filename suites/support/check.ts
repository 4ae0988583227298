// What a check of the API suites is written with: its definition (the shared
// CheckDef plus its body), the context a body records evidence in, and the
// three ways a body ends early (fail, skip, a missing prerequisite), which
// settle() maps onto the one Outcome of harness/check/outcome.ts. Free of
// Playwright, so the catalog of checks (suites/catalog/) loads without it;
// register.ts turns a registered check into a Playwright test.
import type { Evidence, HttpEvidence, Level, SkipKind } from '../../harness/results/model.ts';
import type { CheckDef } from '../../harness/check/def.ts';
import { failed, notApplicable, notRun, passed, type Outcome } from '../../harness/check/outcome.ts';
import { exchange, type Exchange, type ExchangeRequest, type ExchangeResponse } from '../../harness/http/exchange.ts';
import { EVIDENCE_WHOLE_BYTES, describeBody } from '../../harness/http/body.ts';
import { jsonTextFindings } from '../../harness/contracts/input.ts';
import { countStall, stalledReason, stallLimit } from './stalls.ts';
import { redactor, seedRedactor } from './target.ts';
import { encodeWait, type WaitNote } from '../../harness/report/wait.ts';
import { describeTally, PlaceLedger, pluralFamily, type PlaceFamily, type PlaceTally } from '../../harness/results/places.ts';

/** A check of the API suites: its definition and its body. Its level is given where it is registered (suites/catalog/). */
export interface Check extends CheckDef {
  run(c: CheckContext): Promise<void>;
  /** Real seconds the check may take (default: the config's test timeout); a function when it depends on the target. */
  timeoutS?: number | (() => number);
}

/** Expected vs seen: the check found the target breaking the rule. */
class CheckFailed extends Error {
  constructor(message: string, readonly expected?: string, readonly seen?: string) { super(message); }
}
/**
 * The check could not be exercised (not-run: the run is incomplete), or the
 * target says it does not offer the feature (not-applicable: the run stays
 * complete). `remedy` says what the user can do so that it runs, e.g.
 * "give --base-url"; the verdict line groups the checks that did not run by it.
 */
class CheckSkipped extends Error {
  constructor(message: string, readonly kind: Exclude<SkipKind, 'not-selected'> = 'not-run', readonly remedy?: string) { super(message); }
}
/** Something the check builds on (a token, a consented session) could not be had; its own check reports that. The check did not run. */
export class Prerequisite extends Error {
  constructor(message: string, readonly remedy?: string) { super(message); }
}

export class CheckContext {
  readonly evidence: Evidence[] = [];
  /** A line a passed check reports (e.g. which of several allowed behaviours the target showed). */
  summary?: string;
  /** The places the check iterated with everyPlace(), for its result. */
  places?: PlaceTally;
  /** `def` as registered (suites/catalog/): its level decides which contract violations are its own (contract.ts). */
  constructor(readonly def: CheckDef & { level?: Level }) {}

  /** The evidence of each answer, so a failure can point at the exchange that broke the rule. */
  private readonly exchangeOf = new WeakMap<ExchangeResponse, HttpEvidence>();

  /** One HTTP exchange, recorded as evidence. No answer at all fails the check. */
  async http(req: ExchangeRequest): Promise<ExchangeResponse> {
    const suite = this.def.id.split('.')[0]!;
    const limit = stallLimit(suite);
    if (limit === 0) this.skip(stalledReason(suite, false));
    const ex = await exchangeOnce(req, suite);
    this.evidence.push(ex.evidence);
    if (limit !== undefined) this.note(`${stalledReason(suite, true).replace(/ and got no answer$/, '')} (the suite's stall budget was used up)`);
    if (!ex.response && limit !== undefined) this.skip(stalledReason(suite, true));
    if (!ex.response) this.fail(`no answer to ${req.method} ${req.url}`, 'an HTTP answer', ex.evidence.error ?? 'no answer');
    this.exchangeOf.set(ex.response!, ex.evidence);
    flagJsonText(this, ex);
    const over = overLimit(req, ex.response!);
    if (over) this.skip(over);
    return ex.response!;
  }

  record(e: Evidence | HttpEvidence): void { this.evidence.push(e); }

  /** Takes over evidence recorded elsewhere (a step several checks share, suites/support/memo.ts), with the answers it holds. */
  adopt(evidence: readonly Evidence[], answers: Iterable<[ExchangeResponse, HttpEvidence]> = []): void {
    this.evidence.push(...evidence);
    for (const [res, e] of answers) this.exchangeOf.set(res, e);
  }
  note(text: string): void { this.evidence.push({ kind: 'note', text }); }
  measure(name: string, expected: string, seen: string, unit?: string): void {
    this.evidence.push({ kind: 'measurement', name, expected, seen, ...(unit ? { unit } : {}) });
  }

  /**
   * Fails the check: `what` says what was wrong; expected and seen are shown
   * beside it. `at` is the answer (or evidence item) that broke the rule; the
   * report shows it first. Without it the last exchange is marked.
   */
  fail(what: string, expected?: string, seen?: string, at?: ExchangeResponse | Evidence): never {
    this.mark(at);
    throw new CheckFailed(what, expected, seen);
  }

  expect(ok: unknown, what: string, expected: string, seen: string, at?: ExchangeResponse | Evidence): void {
    if (!ok) this.fail(what, expected, seen, at);
  }

  /** Marks the evidence that broke the rule (one item per check). */
  mark(at?: ExchangeResponse | Evidence): void {
    const named = at && (this.exchangeOf.get(at as ExchangeResponse) ?? this.evidence.find(e => e === at));
    const item = named || [...this.evidence].reverse().find(e => e.kind === 'http');
    if (!item) return;
    for (const e of this.evidence) delete e.primary;
    item.primary = true;
  }

  /** The check could not be exercised: it did not run, and the run is incomplete. `remedy`: what makes it run. */
  skip(reason: string, remedy?: string): never { throw new CheckSkipped(reason, 'not-run', remedy); }

  /** The target says it does not offer what the check needs (e.g. no bank lists the service): the run stays complete. */
  notApplicable(reason: string): never { throw new CheckSkipped(reason, 'not-applicable'); }

  /**
   * Judges the rule at every place it binds: runs `body` once per place, each
   * with its own outcome, and goes on after a place that broke the rule or
   * could not be exercised. The check fails when any place broke it (the
   * message names every such place; expected and seen are the first one's),
   * is not run when some place could not be exercised, and passes only when
   * every bound place was exercised and kept the rule. An empty list of places
   * is a check that did not run.
   */
  async everyPlace<T>(family: PlaceFamily, places: readonly { name: string; value: T }[],
    body: (value: T, name: string) => Promise<void>): Promise<void> {
    const ledger = new PlaceLedger(family, places.map(p => p.name));
    const failures: { place: string; e: CheckFailed }[] = [];
    // What would let an unexercised place run (e.g. "give --consent-origins X"): the first one a place named.
    const remedies: (string | undefined)[] = [];
    try {
      for (const p of places) {
        try {
          await body(p.value, p.name);
          ledger.pass(p.name);
        } catch (e) {
          if (e instanceof CheckFailed) { ledger.fail(p.name); failures.push({ place: p.name, e }); continue; }
          if (e instanceof CheckSkipped || e instanceof Prerequisite) { ledger.skip(p.name, e.message); remedies.push(e.remedy); continue; }
          throw e;
        }
      }
    } finally {
      this.places = ledger.tally();
    }
    const tally = this.places;
    if (failures.length) {
      const first = failures[0].e;
      const where = failures.map(f => `${f.place}: ${f.e.message}`).join('; ');
      const unit = places.length === 1 ? family : pluralFamily(family);
      throw new CheckFailed(`broke the rule at ${failures.length} of ${places.length} ${unit} (${where})`, first.expected, first.seen);
    }
    if (!places.length) this.skip(`no ${family} to exercise the rule at`);
    if (tally.notExercised?.length) {
      const why = tally.notExercised.map(n => `${n.place}: ${n.reason}`).join('; ');
      throw new CheckSkipped(`exercised ${describeTally(tally)}; not at ${why}`, 'not-run', remedies.find(r => r !== undefined));
    }
    this.summary = [this.summary, `held at ${describeTally(tally)}`].filter(Boolean).join('; ');
  }

  /** Waits `ms` real ms on purpose; the terminal shows `what` for and the time left meanwhile. */
  async wait(ms: number, what: string): Promise<void> {
    announceWait({ key: this.def.id, what: `${this.def.id}: ${what}`, untilMs: Date.now() + ms });
    try { await new Promise(r => setTimeout(r, Math.max(0, ms))); } finally { announceWait({ key: this.def.id, what, end: true }); }
  }
}

/** Tells the run's terminal what a check waits for (a marked line of the worker's output, see harness/report/wait.ts). */
export function announceWait(n: WaitNote): void {
  process.stdout.write(encodeWait(n));
}

/**
 * One exchange, sent again once when a kept-alive connection was closed by the
 * server just as the request went out (undici: "other side closed" before any
 * answer). The server never saw that request; without the retry, a busy
 * machine turns a harmless race into a failed check.
 */
export async function exchangeOnce(req: ExchangeRequest, suite = 'setup'): Promise<Exchange> {
  // Past the suite's stall budget a call waits less (stalls.ts).
  const limit = stallLimit(suite);
  const r = limit ? { ...req, timeoutMs: Math.min(req.timeoutMs ?? limit, limit), deadlineMs: limit } : req;
  const once = async () => {
    const ex = await exchange(r, seedRedactor());
    const code = (ex.error as NodeJS.ErrnoException | undefined)?.code ?? '';
    if (!ex.response) countStall(suite, code, ex.evidence.durationMs);
    return { ex, code };
  };
  const { ex, code } = await once();
  if (ex.response || !/UND_ERR_SOCKET|ECONNRESET/.test(code + ' ' + (ex.evidence.error ?? ''))) return ex;
  return (await once()).ex;
}

/** Sends a request: as the check's evidence, or during setup (c = null) once, where no answer is a Prerequisite. */
export async function send(c: CheckContext | null, req: ExchangeRequest): Promise<ExchangeResponse> {
  if (c) return c.http(req);
  const ex = await exchangeOnce(req);
  if (!ex.response) throw new Prerequisite(`${req.method} ${req.url} got no answer (${ex.evidence.error})`);
  const over = overLimit(req, ex.response);
  if (over) throw new Prerequisite(over);
  return ex.response;
}

/**
 * What the JSON text of an answer breaks that its parsed value hides (a field
 * name twice in one object, as `validate` finds it): said in a note, and the
 * text kept beside the parsed value in the evidence.
 */
function flagJsonText(c: CheckContext, ex: Exchange): void {
  const res = ex.response;
  if (res?.json === undefined || !res.body.whole) return;
  const found = jsonTextFindings(res.text, res.json);
  if (!found.length) return;
  c.note(`the answer's JSON text breaks RFC 8259 (its parsed value keeps one of the values): ` +
    found.slice(0, 5).map(f => `${f.pointer || '/'} ${f.found}`).join('; ') + (found.length > 5 ? ` and ${found.length - 5} more` : ''));
  if (ex.evidence.response && ex.evidence.response.bodyText === undefined && res.body.bytes <= EVIDENCE_WHOLE_BYTES)
    ex.evidence.response.bodyText = redactor.jsonText(res.text);
}

/**
 * Why an answer cannot be judged when the harness kept only part of it: its
 * own read limit is not the target's failure, so the check does not run and says so with the figure.
 */
function overLimit(req: ExchangeRequest, res: ExchangeResponse): string | undefined {
  if (res.body.whole) return undefined;
  return `the answer to ${req.method} ${req.url} was longer than the harness reads and judges (${describeBody(res.body)}, ` +
    `${res.body.cut ? '' : `of which the first ${res.text.length} characters were kept; `}the harness's limit, not the target's failure)`;
}

/** The short view of a value for a message: JSON, cut at 160 characters. */
export function show(v: unknown): string {
  // Redacted before it is cut: a token cut in half no longer matches its registered value.
  const clean = redactor.value(v);
  const s = clean === undefined ? 'nothing' : JSON.stringify(clean) ?? String(clean);
  return s.length > 160 ? s.slice(0, 157) + '...' : s;
}

/** An answer in a few words for a message: its status and the short view of its body. */
export function describeAnswer(res: ExchangeResponse): string {
  return `${res.status} ${show(res.json ?? res.text)}`;
}

/**
 * Runs the body under a deadline a little shorter than Playwright's timeout, so
 * that a check that hangs still reports what it saw up to then.
 */
export async function settle(c: CheckContext, body: (c: CheckContext) => Promise<void>, deadlineMs: number): Promise<Outcome> {
  const o = await ending(c, body, deadlineMs);
  return c.places ? { ...o, places: c.places } : o;
}

/** The one place where the ways an API check ends (return, fail, skip, notApplicable, a prerequisite, a bug) become an Outcome. */
async function ending(c: CheckContext, body: (c: CheckContext) => Promise<void>, deadlineMs: number): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailed(`the check did not finish within ${(deadlineMs / 1000).toFixed(0)} s`)), deadlineMs);
  });
  try {
    await Promise.race([body(c), deadline]);
    return passed(c.summary, c.evidence);
  } catch (e) {
    if (e instanceof CheckSkipped) return e.kind === 'not-applicable' ? notApplicable(e.message, c.evidence) : notRun(e.message, e.remedy, c.evidence);
    if (e instanceof Prerequisite) return notRun(`not checked: ${e.message}`, e.remedy, c.evidence);
    if (e instanceof CheckFailed) {
      // What was seen quotes the target: redacted before it goes into the message the harness writes.
      const seen = e.seen === undefined ? undefined : redactor.text(e.seen);
      const detail = e.expected !== undefined || seen !== undefined ? `: expected ${e.expected ?? '?'}, seen ${seen ?? '?'}` : '';
      return failed(e.message + detail, e.expected, seen, c.evidence);
    }
    // The harness's own exception (a bug, or input it could not handle): the check did not run, it did not fail.
    return notRun(`the harness could not finish the check: ${redactor.text(String((e as Error)?.message ?? e))}`,
      'report it as a bug of the harness, with the report folder', c.evidence);
  } finally {
    clearTimeout(timer);
  }
}
