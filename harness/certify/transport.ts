// Sends the deliveries of a certification run and times each one the way the
// service's sender does (spec 6.6): one wait of 5 s (time-scaled, plus the
// timing tolerance) from the first byte sent to the answer's status line and
// headers; without them by then the delivery counts as not answered and the
// connection is dropped. The answer's body is read within the same wait but is
// not timed: a 10 MB acknowledgement is the receiver's business, not a late
// answer. What is kept of a body is capped (wire.ts).
// One pool of connections for the whole run, without a limit, so the
// checkouts of a phase open parallel connections as the service's do (spec 6.9).
// Every exchange is kept for receiver.latency.
import type { Redactor } from '../report/redact.ts';
import { answerJson, describeError, Sent, type Delivery, type DeliveryKind, type What } from './delivery.ts';
import { headerValue } from './key.ts';
import { StallMeter } from './stall.ts';
import { Waits } from './waits.ts';
import { Connections, targetOf, WireCall, type Target, type WireRequest } from './wire.ts';
import { budget, timing, type SenderOptions, type Timing } from './options.ts';
import { specClock } from '../clock.ts';

export type { Delivery, DeliveryKind } from './delivery.ts';

export interface PostOptions {
  kind: DeliveryKind;
  label: string;
  /** The api-key header: the registered key by default, null to leave the header out. */
  apiKey?: string | null;
  /**
   * The body's text, sent as is: garbage, or a body serialised ahead of time
   * (the plan's); otherwise `body` is serialised here as JSON. Either way the
   * evidence shows a JSON text parsed.
   */
  raw?: string;
  contentType?: string;
  /** How the curl line writes the api-key when it is derived from the registered one (a shell expression of $PIS_WEBHOOK_API_KEY). */
  curlKey?: string;
}

export class Transport {
  readonly timing: Timing;
  readonly log: Delivery[] = [];
  private readonly pool: Connections;
  /** For a request sent again: no connection is kept, so each goes on a new one. */
  private readonly fresh: Connections;
  private readonly stalls = new StallMeter();
  private readonly target: Target;
  private sent = 0;
  /** Deliveries let through to be sent (sent counts those done). */
  private posted = 0;
  /** The request of a delivery not sent: no headers, no body. */
  private readonly nothing: WireRequest;
  private readonly waits: Waits;
  private stopped?: string;
  private readonly wake = new Set<() => void>();
  private lastAnswered?: Delivery;
  private down?: { after: Delivery; refused: Delivery };
  /** The headers of a delivery with the registered key, made once: most deliveries send them. */
  private readonly headers: Readonly<Record<string, string>>;

  /**
   * `deadline` (performance.now() ms) is the run's time budget: a delivery that
   * could not be answered before it is not sent, and says so.
   */
  constructor(private readonly opts: SenderOptions, private readonly redactor: Redactor,
    private readonly onSent: (sent: number) => void = () => {}, readonly deadline = Infinity) {
    this.timing = timing(specClock(opts.timeScale));
    this.waits = new Waits(this.timing.waitMs, this.stalls);
    this.target = targetOf(opts.url);
    this.headers = Object.freeze(headersFor(opts.apiKey, undefined));
    this.nothing = { method: 'POST', url: opts.url, headers: {} };
    this.pool = new Connections({ rejectUnauthorized: !opts.insecure, keepAlive: true });
    this.fresh = new Connections({ rejectUnauthorized: !opts.insecure, keepAlive: false });
  }

  get count(): number { return this.sent; }

  /** Whether a delivery started now (after `extraMs` more) could still be answered within the budget. */
  allows(extraMs = 0): boolean { return !this.stopped && performance.now() + extraMs + this.timing.waitMs <= this.deadline; }

  /**
   * Ends the run's sending now (a stop signal): exchanges in flight are cut,
   * pauses end, and nothing more is sent; every delivery affected says `why`.
   */
  stop(why: string): void {
    if (this.stopped) return;
    this.stopped = why;
    this.waits.cutAll(why);
    for (const w of this.wake) w();
  }

  /** Told of every pause that has a reason, as it starts (the command's status line). */
  onPause?: (ms: number, why: string) => void;

  /** Waits `ms` (a pause the service would make), or less when the run is stopped; `why` is said to onPause. */
  async pause(ms: number, why?: string): Promise<void> {
    if (this.stopped) return;
    if (why) this.onPause?.(ms, why);
    await new Promise<void>(resolve => {
      const done = () => { clearTimeout(timer); this.wake.delete(done); resolve(); };
      const timer = setTimeout(done, ms);
      this.wake.add(done);
    });
  }

  /**
   * Set when a connection failed (refused, or closed without an answer) after
   * the receiver had answered, and nothing was answered since: the receiver
   * may have stopped after `after`. The caller confirms with a fresh connection.
   */
  get broken(): { after: Delivery; refused: Delivery } | undefined { return this.down; }

  /** POSTs one delivery to the receiver; never throws for HTTP or network failures. */
  async post(body: unknown, o: PostOptions): Promise<Delivery> {
    // makePlan keeps a run within --max-requests; this holds the log, and so what a run keeps in memory, to it whatever a phase sends.
    const max = this.opts.maxRequests;
    if (this.posted >= max) return this.unsent(this.nothing, o, `--max-requests (${max}) was reached`, 'raise --max-requests');
    this.posted++;
    const key = o.apiKey === undefined ? this.opts.apiKey : o.apiKey;
    const headers = key === this.opts.apiKey && o.contentType === undefined ? this.headers : headersFor(key, o.contentType);
    const text = o.raw ?? JSON.stringify(body);
    const req = { method: 'POST', url: this.opts.url, headers, body: text };
    const d = await this.send(req, this.target, { kind: o.kind, label: o.label, curlKey: key === this.opts.apiKey ? '$PIS_WEBHOOK_API_KEY' : o.curlKey });
    this.log.push(d);
    this.onSent(++this.sent);
    return d;
  }

  /**
   * A delivery the run chose not to send (`reason` says why, e.g. its verdict
   * is already settled); logged, so the checks that wanted it are not-run.
   */
  skip(kind: DeliveryKind, label: string, reason: string): Delivery {
    const d = this.unsent(this.nothing, { kind, label }, reason);
    this.log.push(d);
    return d;
  }

  /** GETs a URL (the state URL); not counted as a delivery. */
  async get(url: string, label: string): Promise<Delivery> {
    const d = await this.send({ method: 'GET', url, headers: { accept: 'application/json' } }, targetOf(url), { kind: 'state', label });
    if (d.answer) d.json = answerJson(d.answer);
    return d;
  }

  private unsent(req: WireRequest, what: What, reason: string, remedy?: string): Sent {
    return new Sent(this.redactor, req, what,
      { ms: 0, startedAt: Date.now(), durationMs: 0, timedOut: false, notSent: reason, remedy, error: `not sent: ${reason}` });
  }

  async close(): Promise<void> {
    this.stalls.stop();
    this.waits.close();
    this.pool.close();
    this.fresh.close();
  }

  private async send(req: WireRequest, target: Target, what: What): Promise<Sent> {
    if (this.stopped) return this.unsent(req, what, this.stopped);
    if (!this.allows()) return this.unsent(req, what, `${budget(this.opts).text} would have run out before an answer`, 'raise --max-duration');
    let d = await this.attempt(req, target, what, this.pool);
    // A kept-alive connection the receiver closed just as the request went out
    // (its idle timeout and ours crossing) is no answer from the receiver: the
    // request goes once more on a connection of its own, as an HTTP client
    // does. A receiver that is down fails the second time too.
    if (d.status === undefined && !d.timedOut && !d.notSent && /closed the connection/.test(d.error ?? '') && this.allows())
      d = await this.attempt(req, target, { ...what, label: `${what.label} (sent again on a new connection after: ${d.error})` }, this.fresh);
    if (d.status !== undefined) { this.lastAnswered = d; this.down = undefined; }
    else if (this.lastAnswered && !d.timedOut && !d.notSent) {
      // The culprit is the delivery whose connection was cut in the middle (it was being handled when the receiver
      // went), not one sent beside it that found nothing listening; the first such, else the first that failed.
      const cut = (x: Delivery) => !/connection refused/.test(x.error ?? '');
      if (!this.down || (!cut(this.down.refused) && cut(d))) this.down = { after: this.lastAnswered, refused: d };
    }
    return d;
  }

  /** One exchange, timed as the service times it (see the file's head). */
  private async attempt(req: WireRequest, target: Target, what: What, pool: Connections): Promise<Sent> {
    const startedAt = Date.now();
    const started = performance.now();
    const f = this.waits.start(new WireCall(pool, target, req), started);
    const o = await f.call.done;
    this.waits.end(f);
    const timedOut = f.timedOut, waitMs = this.timing.waitMs;
    // Cut by a stop signal: not the receiver's doing, so not judged.
    if (this.stopped && o.status === undefined && !timedOut) return this.unsent(req, what, this.stopped);
    const end = performance.now();
    const at = o.headersAt ?? end;
    // Taken out of the answer time: the stall this process was just coming out of when it saw the answer.
    const stallMs = o.status !== undefined ? this.stalls.justEnded(at, started) : 0;
    const extended = timedOut ? this.stalls.stalledMs(started, end) : 0;
    const error = o.status !== undefined ? undefined
      : timedOut
        ? `no answer within ${waitMs.toFixed(0)} ms${extended >= 1 ? ` (the wait was extended by the ${extended.toFixed(0)} ms this process was stalled)` : ''}`
        : describeError(o.error);
    return new Sent(this.redactor, req, what, { ms: at - started - stallMs, stallMs, startedAt, durationMs: end - started, timedOut, error, outcome: o });
  }
}

function headersFor(key: string | null, contentType: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': contentType ?? 'application/json' };
  if (key !== null) headers['api-key'] = headerValue(key);
  return headers;
}
