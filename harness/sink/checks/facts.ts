// The facts of one webhook body that the checks read. The sink takes them from
// the whole body once, when it arrives, and keeps only them and a prefix of the
// body (../body.ts); a hand-made record without them is read from its body.
// Every value is bounded (strings cut, lists capped), so a hostile body costs
// the same few hundred bytes as a correct one.
import { checkWebhookBody, type Violation } from '../../contracts/index.ts';
import { describeValue } from '../../contracts/violations.ts';
import type { DeliveryAttempt } from '../../results/model.ts';

/** A field's value as the checks compare it: a scalar (strings cut at MAX_TEXT), or a description of an object or array. */
export type Fact = string | number | boolean | null | { described: string };

interface PaymentFacts {
  transactionStatus?: Fact; scheduledDate?: Fact; paymentScheduledDate?: Fact; originalAmount?: Fact; amount?: Fact; cardPaymentId?: Fact;
}

export interface BodyFacts {
  /** Why the body could not be judged as JSON: not JSON (the parser's words), or never finished. */
  unreadable?: string;
  kind: 'normal' | 'batch' | 'older' | 'unknown';
  status?: Fact;
  id?: Fact;
  referenceId?: Fact;
  endToEndId?: Fact;
  abortReason?: Fact;
  createdDate?: Fact;
  lastModifiedDate?: Fact;
  /** `payment` of a normal or older body, `payments` of a batch body (the first MAX_PAYMENTS). */
  payments: PaymentFacts[];
  /** How many payments the body has (a batch body may have more than are kept). */
  paymentCount: number;
  /** The body's violations of its contract, `must` first (the first MAX_VIOLATIONS). */
  violations: Violation[];
  violationCount: number;
}

/** Arbitrary bounds: far above what a correct body has, small enough that 100,000 hostile bodies stay cheap. */
const MAX_TEXT = 200;
const MAX_PAYMENTS = 100;
const MAX_VIOLATIONS = 20;
const NONE: Violation[] = [];

function fact(v: unknown): Fact | undefined {
  if (v === undefined) return undefined;
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'string') return v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT)}…` : v;
  return { described: describeValue(v) };
}

/** A fact in a message: JSON for scalars, the description otherwise. */
export function showFact(f: Fact | undefined): string {
  if (f === undefined) return 'absent';
  return typeof f === 'object' && f !== null ? f.described : JSON.stringify(f);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function paymentFacts(p: unknown): PaymentFacts {
  if (!isObject(p)) return {};
  const out: PaymentFacts = {};
  for (const k of ['transactionStatus', 'scheduledDate', 'paymentScheduledDate', 'originalAmount', 'amount', 'cardPaymentId'] as const) {
    const f = fact(p[k]);
    if (f !== undefined) out[k] = f;
  }
  return out;
}

/** The facts of a body given as text (the whole body). */
export function readBody(text: string): BodyFacts {
  let json: unknown;
  try { json = JSON.parse(text); } catch (e) {
    return { unreadable: `the body is not JSON (${String((e as Error).message).slice(0, MAX_TEXT)})`, kind: 'unknown', payments: [], paymentCount: 0,
      violations: NONE, violationCount: 0 };
  }
  const { kind, violations } = checkWebhookBody(json);
  const body = isObject(json) ? json : {};
  const list = kind === 'batch' ? (Array.isArray(body.payments) ? body.payments : []) : body.payment === undefined ? [] : [body.payment];
  const out: BodyFacts = {
    kind, payments: list.slice(0, MAX_PAYMENTS).map(paymentFacts), paymentCount: list.length,
    violations: violations.length ? violations.slice(0, MAX_VIOLATIONS) : NONE, violationCount: violations.length,
  };
  for (const k of ['status', 'id', 'referenceId', 'endToEndId', 'abortReason', 'createdDate', 'lastModifiedDate'] as const) {
    const f = fact(body[k]);
    if (f !== undefined) out[k] = f;
  }
  return out;
}

/** The facts of a body the sink could not read whole (it never finished, or it was over the size limit). */
export function unreadableBody(why: string): BodyFacts {
  return { unreadable: why, kind: 'unknown', payments: [], paymentCount: 0, violations: NONE, violationCount: 0 };
}

/**
 * An attempt as the sink recorded it: the report's record and, in a field of
 * its own, the facts the sink took from the whole body (of which the record
 * may keep a prefix only). A copy keeps them; a hand-made record has none,
 * and its facts are read from its body.
 */
export interface RecordedAttempt extends DeliveryAttempt {
  facts?: BodyFacts;
}

/** The facts of an attempt's body: those the sink took, else read from the recorded body (hand-made records). */
export function factsOf(d: RecordedAttempt): BodyFacts {
  return d.facts ?? readBody(d.body);
}

/** The record as report files keep it: without the facts, which are the analysis's. */
export function recordOf(d: RecordedAttempt): DeliveryAttempt {
  const { facts: _facts, ...record } = d;
  return record;
}
