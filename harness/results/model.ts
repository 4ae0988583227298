// The results model shared by every command that writes a report folder
// (docs/report.md). Checks and reporters meet here and nowhere else.
import type { PlaceTally } from './places.ts';

/** The one level type: `must` decides the verdict, `should` warns, `profile` reports a decision of docs/profile.md. */
export type Level = 'must' | 'should' | 'profile';
export type CheckStatus = 'passed' | 'failed' | 'skipped';
/**
 * Why a check was skipped: `not-applicable` (the target says it does not offer
 * the feature; does not make a run incomplete), `not-run` (the check could not
 * be exercised; makes a run incomplete), `not-selected` (left out by --suites,
 * --grep or --no-profile). A skipped result without a kind counts as not-run.
 */
export type SkipKind = 'not-applicable' | 'not-run' | 'not-selected';
export type Suite = 'token' | 'session' | 'data' | 'payments' | 'webhook' | 'receiver';

/**
 * What every evidence item may carry: `primary` marks the item that broke the
 * rule (the exchange, measurement or attempts a failed check points at); the
 * report shows it first and open, the rest collapsed.
 */
interface EvidenceMark { primary?: boolean }

/** One HTTP exchange, already redacted. Bodies are parsed JSON where they were JSON, else text. */
export interface HttpEvidence extends EvidenceMark {
  kind: 'http';
  label?: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: unknown };
  /**
   * `body` is the whole body up to 64 KiB; beyond that its first bytes and a
   * line with its length and sha256, which bodyBytes and bodySha256 repeat.
   */
  response?: {
    status: number; headers: Record<string, string>; body?: unknown; bodyBytes?: number; bodySha256?: string;
    /** The body's text, beside `body`, where the parsed value does not say all of it (a number past a double, a name given twice). */
    bodyText?: string;
  };
  /** Set when no (complete) response came: connection refused, reset, timeout. */
  error?: string;
  startedAt: string;
  durationMs: number;
  /** A shell line that repeats the request, with secrets as $PIS_* placeholders. */
  curl?: string;
}

/** One webhook delivery attempt as the sink (or the sender) saw it; times in ms since the run's t0. */
export interface DeliveryAttempt {
  seq: number;
  checkoutId: string;
  /** Index of the event within its checkout (0-based), as the analysis assigned it. */
  event?: number;
  bodyStatus?: string;
  attempt?: number;
  arrivedMs: number;
  /**
   * For the first request of a connection: when the sink accepted that connection (real ms since the sink started).
   * The sender's clock for the attempt ran before it connected, so its wait counts from before arrivedMs.
   */
  connectedMs?: number;
  headers: Record<string, string>;
  body: string;
  probe: string;
  /** What the sink answered: an HTTP status, 'reset', or 'none' (the sender hung up first). */
  answer: number | 'reset' | 'none';
  answeredMs?: number;
  closedMs?: number;
  /** The request method, when it was not POST (spec 4.3). */
  method?: string;
  /** The request path, cut at 200 characters. */
  path?: string;
  /** How many headers the record left out (it keeps a bounded amount per attempt). */
  headersOmitted?: number;
  /** The api-key header against the registered key; a wrong key is shown by its length and a short hash only. */
  apiKeyCheck?: ApiKeyCheck;
  /** When `body` keeps only the start of the body: the whole body's length in bytes and its sha256. */
  bodyBytes?: number;
  bodySha256?: string;
  /** Real ms up to which the recorder's own stamps of this attempt may be late (its event-loop lag around them). */
  lagMs?: number;
  /** The probe plan of its checkout (e.g. 'answer-500', 'held'): the timeline's row name. */
  plan?: string;
  /** Why this attempt is not counted as the tested sender's (no registered key, no planned checkout); absent when it is. */
  unattributed?: string;
}

export interface ApiKeyCheck { verdict: 'registered' | 'missing' | 'other'; length?: number; sha256?: string }

export interface NoteEvidence extends EvidenceMark { kind: 'note'; text: string }
export interface MeasurementEvidence extends EvidenceMark { kind: 'measurement'; name: string; expected: string; seen: string; unit?: string }
export interface DeliveryEvidence extends EvidenceMark {
  kind: 'delivery';
  attempts: DeliveryAttempt[];
  /** Seqs of the attempts that broke the rule (a retry that came early, not the attempt before it). */
  violating?: number[];
}
/**
 * Every value of one measured series (e.g. the answer times of one kind of
 * delivery), so a picture or a statistic can be drawn from results.json alone;
 * `marks` are reference values in the same unit (a limit, an advice).
 */
export interface SamplesEvidence extends EvidenceMark {
  kind: 'samples';
  name: string;
  series: string;
  unit: string;
  values: number[];
  marks?: Record<string, number>;
}
export type Evidence = HttpEvidence | NoteEvidence | MeasurementEvidence | DeliveryEvidence | SamplesEvidence;

export interface CheckResult {
  /** Stable dotted id, suite.area.name; the first two segments are the fixed prefixes of docs/checks.md. */
  id: string;
  suite: Suite;
  title: string;
  /** Section of the service spec the check enforces. */
  spec: string;
  /** The sentence of the spec (or docs/profile.md) the check enforces. */
  quote?: string;
  /** Requirement ids (contracts/requirements.yaml) the check enforces. */
  requirements?: string[];
  level: Level;
  status: CheckStatus;
  /** Set on skipped checks only. */
  skipKind?: SkipKind;
  /** One line: on failure what was expected and what was seen; on skip, why. */
  message?: string;
  /** For a check that did not run: what the user can do so it runs (e.g. "give --control-url"). */
  remedy?: string;
  expected?: string;
  seen?: string;
  evidence: Evidence[];
  durationMs: number;
  /** The places the check bound in this run, those it exercised and those where the rule broke (harness/results/places.ts). */
  places?: PlaceTally;
}

export type Verdict = 'conformant' | 'not-conformant' | 'incomplete' | 'interrupted';

/**
 * The counts and the verdict of a run (computed by harness/report/verdict.ts
 * from the checks, never by a renderer). `conformant` is true for the verdict
 * Conformant only; `skipped` counts the skipped checks that were selected
 * (not-run and not-applicable), never the not-selected ones.
 */
export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
  conformant: boolean;
  verdict: Verdict;
  warnings: number;
  notRun: number;
  notApplicable: number;
  notSelected: number;
}

/** What a run was asked to check; commands other than `run` record what applies to them. */
export interface Selection {
  suites?: string[];
  grep?: string;
  /** Whether profile-level checks ran (false with --no-profile). */
  profile?: boolean;
  timeScale?: number;
  maxWaitS?: number;
  allowIncomplete?: boolean;
  /** The API version the target was tested at (spec 9; run --api-version). */
  apiVersion?: string;
  [more: string]: unknown;
}

/**
 * A rule the implementation knowingly breaks (run --deviations, contracts/deviations.yaml),
 * as judged against the run. It never changes a check's status or the verdict.
 */
export interface DeclaredDeviation {
  /** The requirement or the check it names (one of them). */
  requirement?: string;
  check?: string;
  justification: string;
  /** The last day (UTC) it holds, YYYY-MM-DD. */
  expires: string;
  link: string;
  /** The failed checks of the run it names (by id, or by a requirement they enforce); empty: unused. */
  covers: string[];
  /** `expires` is before the run's last day. */
  expired: boolean;
}

export interface RunResults {
  tool: { name: string; version: string };
  command: string;
  target: Record<string, string | undefined>;
  timeScale: number;
  startedAt: string;
  finishedAt: string;
  selection?: Selection;
  /** A signal (or the global timeout) cut the run short. */
  interrupted?: boolean;
  summary: RunSummary;
  /** The checks the run selected, each with its result. */
  checks: CheckResult[];
  /** The checks the selection left out (skipKind not-selected, the message names the option); apart, so `checks` holds only what was selected. */
  notSelected?: CheckResult[];
  deliveries?: DeliveryAttempt[];
  /** The declared deviations, when run was given --deviations: listed, never counted. */
  deviations?: DeclaredDeviation[];
}

/** A failed check that decides the verdict: a failed `must`. */
export function isMustFailure(c: Pick<CheckResult, 'status' | 'level'>): boolean {
  return c.status === 'failed' && c.level === 'must';
}

/** A failed check that does not decide the verdict (`should` or `profile`): shown as a warning. */
export function isWarning(c: Pick<CheckResult, 'status' | 'level'>): boolean {
  return c.status === 'failed' && c.level !== 'must';
}
