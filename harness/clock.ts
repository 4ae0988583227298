// The spec clock: every spec duration d lasts d x scale real seconds
// (docs/report.md, time scale). The one place a time scale is validated, a
// spec duration becomes a real one and back, and the contract's timing
// tolerance, max(25 ms, 2 %), is computed; the reference's Clock
// (harness/reference/clock.ts) builds on it. test/architecture/clock.test.ts
// fails when the tolerance or a time-scale check is written anywhere else.
import { HarnessError, type ErrorCode } from './errors.ts';

/** The floor of every timing tolerance, in real ms (docs/report.md, time scale). */
export const TOLERANCE_FLOOR_MS = 25;
/** The share of the expected value a timing may differ by. */
const TOLERANCE_SHARE = 0.02;

export interface SpecClock {
  /** Real seconds per spec second. */
  readonly scale: number;
  /** The tolerance floor in real ms (25 unless a command was told otherwise, e.g. sink --timing-tolerance). */
  readonly toleranceFloorMs: number;
  /** Spec ms -> real ms, and back. */
  toReal(specMs: number): number;
  toSpec(realMs: number): number;
  /** The timing tolerance of an expected real duration, in real ms: max(floor, 2 %). */
  tolerance(realMs: number): number;
  /** The timing tolerance of an expected spec duration, in spec ms: the floor seen on the spec clock, or 2 %. */
  specTolerance(specMs: number): number;
}

/** True for a time scale: a finite number above 0. */
export function isTimeScale(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/**
 * A time scale from a flag, variable, config key or caller; else one sentence
 * naming `what` (`--time-scale`, `PIS_TIME_SCALE`), exit 2.
 */
export function readTimeScale(value: unknown, what: string, code: ErrorCode = 'PIS_BAD_FLAG'): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (isTimeScale(n)) return n;
  throw new HarnessError(code, `${what} must be a positive number, not '${String(value)}'.`);
}

/** A clock of `scale` real seconds per spec second; `scale` is checked (a bad one is an error naming the time scale). */
export function specClock(scale: number, opts: { toleranceFloorMs?: number } = {}): SpecClock {
  const s = readTimeScale(scale, 'the time scale');
  const floor = opts.toleranceFloorMs ?? TOLERANCE_FLOOR_MS;
  return {
    scale: s,
    toleranceFloorMs: floor,
    toReal: specMs => specMs * s,
    toSpec: realMs => realMs / s,
    tolerance: realMs => Math.max(floor, TOLERANCE_SHARE * realMs),
    specTolerance: specMs => Math.max(floor / s, TOLERANCE_SHARE * specMs),
  };
}
