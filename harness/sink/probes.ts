// How the sink answers one delivery attempt. A probe is chosen per attempt from
// the checkout's plan (plan.ts); the analysis reads the probe back from the
// recorded attempt to know what the sender was asked to cope with.

/** Every answer the sink can give (200 at once, 500, other codes, 4 s, 6 s, trickled, a reset). */
export type Probe =
  | 'ok'
  | 'status-500' | 'status-201' | 'status-204' | 'status-302' | 'status-400'
  | 'status-401' | 'status-403' | 'status-404' | 'status-410' | 'status-413' | 'status-429' | 'status-503'
  /** 429 with a Retry-After header (RETRY_AFTER_SPEC_S): still a failed delivery (spec 6.4). */
  | 'status-429-retry-after'
  | 'slow-4s' | 'slow-6s'
  /** 200 with its status line and headers at once, then its body a byte every TRICKLE_STEP_SPEC_MS: complete only past 5 s. */
  | 'slow-trickle'
  | 'reset'
  /** Not planned: the sink's own answer to a body over the size limit (413, still recorded). */
  | 'too-large'
  /** Not planned: a body that never finished by the sink's deadline, or on a connection closed to make room (408). */
  | 'incomplete'
  /** Not planned: sink --forward-to passed on the answer of the merchant's receiver, a status no probe gives. */
  | 'forwarded';

/**
 * Spec ms the sink holds a slow answer. 4 s sits 1 s inside the 5 s window of
 * spec 6.6 (must count as delivered) and 6 s 1 s outside it (must count as
 * failed): 1 s either side is 50 times the 2 % timing tolerance, so a sender's
 * ordinary scheduling jitter cannot move an answer across the window.
 */
export const SLOW_ANSWER_SPEC_MS: Partial<Record<Probe, number>> = { 'slow-4s': 4_000, 'slow-6s': 6_000 };

/**
 * The body of a trickled answer and the spec ms between its bytes: 15 bytes,
 * the last 7.5 s after the head went out. Each byte comes well inside any
 * inactivity limit, so only a sender that counts the 5 s of spec 6.6 "in total"
 * (the whole answer) gives up at 5 s; one that waits for silence reads it all.
 */
export const TRICKLE_BODY = 'answer trickled';
export const TRICKLE_STEP_SPEC_MS = 500;

/** The probes that hold an answer past the 5 s window: a conforming sender gives up on them. */
export const LATE_PROBES: readonly string[] = ['slow-6s', 'slow-trickle'];

/** The probe that gives `status`: what a forwarded answer asked of the sender, for the analysis. */
export function probeOfStatus(status: number): Probe {
  const p = status === 200 ? 'ok' : `status-${status}`;
  return STATUS_PROBES.includes(p) ? p as Probe : 'forwarded';
}

const STATUS_PROBES = ['ok', 'status-500', 'status-201', 'status-204', 'status-302', 'status-400',
  'status-401', 'status-403', 'status-404', 'status-410', 'status-413', 'status-429', 'status-503'];

/**
 * Spec seconds a 429-retry-after answer asks the sender to wait: the spec's
 * own minimum backoff (6.5), so a sender that honours the header and one that
 * ignores it both retry at a delay min-delay accepts.
 */
export const RETRY_AFTER_SPEC_S = 10;

/** The HTTP status a probe answers with, or 'reset' for a dropped connection. */
export function probeAnswer(p: Probe): number | 'reset' {
  switch (p) {
    case 'ok': case 'slow-4s': case 'slow-6s': case 'slow-trickle': return 200;
    case 'reset': return 'reset';
    case 'too-large': return 413;
    case 'incomplete': return 408;
    case 'forwarded': return 502;
    case 'status-429-retry-after': return 429;
    default: return Number(p.slice('status-'.length));
  }
}
