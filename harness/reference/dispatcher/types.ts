// Types shared by the reference's webhook dispatcher and its control API
// (docs/control-api.md). Times are spec milliseconds of the reference clock,
// so a test can compare them with what its receiver saw after dividing by the scale.

/** Where a checkout's webhooks go: the URL and the api-key the receiver expects (spec 4.3, 5.4). */
export interface WebhookTarget {
  url: string;
  apiKey: string;
}

/** How one attempt ended: delivered (200 within 5 s), another status, no complete answer in time, or a connection error. */
export type AttemptOutcome = 'delivered' | `http-${number}` | 'timeout' | 'error';

/**
 * One delivery attempt exactly as the reference made it; one per request a
 * receiver saw, except an attempt whose request never reached the receiver's
 * HTTP server (`written: false`, or outcome 'error': a connection refused or
 * closed under the request), as happens on any network.
 */
export interface ReferenceAttempt {
  checkoutId: string;
  /** Index of the event within its checkout, 0-based (the status's index in the control request). */
  event: number;
  status: string;
  /** 1 for the first attempt of an event, 2 for its first retry, ... */
  attempt: number;
  /** 1, or 2 for the second delivery of an event under the `webhook-duplicates` quirk. */
  copy: number;
  /**
   * When the request went out: undici handed its bytes to the socket, after any
   * connection set-up (for an attempt that never got a connection: when it was begun).
   */
  sentAtMs: number;
  /** When undici had read the answer's last byte, the request failed, or the wait for the answer ran out. */
  endedAtMs: number;
  outcome: AttemptOutcome;
  /** False when the request never got a connection, so none of its bytes left. */
  written: boolean;
  /** Request headers as sent, with the api-key value shown as [redacted]. */
  headers: Record<string, string>;
  /** The error's message for outcome 'error'. */
  error?: string;
}

/** Where an event stands: waiting or retrying, delivered, or given up (7 days old, or never retried under `webhook-no-retry`). */
type EventState = 'pending' | 'delivered' | 'dropped';

/** One event (one status of one checkout) as the dispatcher tracks it. */
export interface EventRecord {
  checkoutId: string;
  event: number;
  copy: number;
  status: string;
  createdAtMs: number;
  state: EventState;
  deliveredAtMs?: number;
  droppedAtMs?: number;
  dropReason?: string;
  attempts: number;
}

/** What the dispatcher is asked to send: a body for one status of one checkout. */
export interface OutgoingEvent {
  checkoutId: string;
  event: number;
  status: string;
  body: Record<string, unknown>;
  target: WebhookTarget;
}
