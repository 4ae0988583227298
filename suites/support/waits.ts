// Waits for the spec's clock (a token or a consent running out) side by side.
// A check that must wait does not wait in its own turn: its exchanges run in a
// watch that starts when the suite's worker starts, beside the suite's other
// checks (start-first.ts), and the check, registered last, judges what the
// watch saw. A run then lasts about as long as its longest single wait instead
// of the sum of them. Free of Playwright, like the checks that use it.
import type { Evidence } from '../../harness/results/model.ts';
import type { ExchangeResponse } from '../../harness/http/exchange.ts';
import type { HttpEvidence } from '../../harness/results/model.ts';
import type { CheckDef } from '../../harness/check/def.ts';
import { announceWait, type CheckContext } from './check.ts';
import { Recorder } from './memo.ts';
import { target } from './target.ts';
import { perPart } from './part.ts';
import { specClock, type SpecClock } from '../../harness/clock.ts';

/** One exchange a watch made, kept for the check that reads it. */
export interface Seen {
  res?: ExchangeResponse;
  /** What the step threw (no answer, a Prerequisite): the reading check throws it again. */
  error?: unknown;
  evidence: Evidence[];
  /** The evidence of each answer, so a failure can point at the exchange that broke the rule. */
  answers: Map<ExchangeResponse, HttpEvidence>;
  /** performance.now() just before the request went out and once its answer was read. */
  sentAt: number;
  doneAt: number;
}

/** The context a watch's step runs in: it only collects evidence, which the reading check adopts. */
const WATCH: CheckDef = { id: 'watch', title: 'a wait on the spec clock', spec: '', quote: '' };

/** Runs one step of a watch with its own evidence; never throws. */
export async function observe(step: (c: CheckContext) => Promise<ExchangeResponse>): Promise<Seen> {
  const c = new Recorder(WATCH);
  const sentAt = performance.now();
  try {
    const res = await step(c);
    return { res, evidence: c.evidence, answers: c.answers, sentAt, doneAt: performance.now() };
  } catch (error) {
    return { error, evidence: c.evidence, answers: c.answers, sentAt, doneAt: performance.now() };
  }
}

/** Puts what a watch saw into the reading check's evidence and hands back the answer (or throws what the step threw). */
export function adopt(c: CheckContext, seen: Seen): ExchangeResponse {
  c.adopt(seen.evidence, seen.answers);
  if (seen.error !== undefined) throw seen.error;
  return seen.res!;
}

/** Resolves at performance.now() = `at`; the run's terminal shows `what` is waited for, and the time left. */
export async function until(at: number, what: string): Promise<void> {
  const key = `wait:${what}`;
  const ms = Math.max(0, at - performance.now());
  announceWait({ key, what, untilMs: Date.now() + ms });
  try { await new Promise(r => setTimeout(r, ms)); } finally { announceWait({ key, what, end: true }); }
}

/** The target's clock (harness/clock.ts). */
const targetClock = (): SpecClock => specClock(target().timeScale);

/** Real milliseconds of `specS` spec seconds on the target's clock. */
export const realMs = (specS: number) => targetClock().toReal(specS * 1000);

/** Spec seconds of `ms` real milliseconds on the target's clock. */
export const specSeconds = (ms: number) => targetClock().toSpec(ms) / 1000;

/** The --max-wait that lets a wait of `ms` real milliseconds run: at least 5 s more (arbitrary room for the calls around it), rounded up to 10 s. */
export const neededMaxWait = (ms: number) => Math.ceil((ms / 1000 + 5) / 10) * 10;

/** A watch starts once per part of the run (part.ts), when it is first asked for (by startFirst, or by the check that reads it). */
export function watch<T>(start: () => T): () => T {
  const started = perPart(() => ({ value: undefined as { value: T } | undefined }));
  return () => (started().value ??= { value: start() }).value;
}
