// The time scale of `run`, decided once: the one given (flag, environment or
// config file, in that order), else the control API's, else 1 (a target of
// your own) or BUNDLED_TIME_SCALE (the bundled reference). run.ts applies the
// result to every TargetConfig it resolves; nothing mutates a config in place.
import { HarnessError } from '../errors.ts';
import { redactUrlUserinfo } from '../http/url.ts';
import type { PartialConfig, TargetConfig } from '../config/config.ts';

/** A time scale someone gave, and where: `--time-scale`, `PIS_TIME_SCALE`, the config file. */
export interface GivenTimeScale { value: number; by: string }

/** What a run's configs take from the decision, and where the scale came from when it was the control API. */
export interface RunTimeScale {
  settings: Pick<TargetConfig, 'timeScale'> & Pick<PartialConfig, 'timeScaleFromTarget'>;
  source?: string;
}

/** Where the time scale was given, if anywhere: the flag, the environment, or the config file. */
export function givenTimeScale(flags: PartialConfig, env: PartialConfig, file: PartialConfig): GivenTimeScale | undefined {
  if (flags.timeScale !== undefined) return { value: flags.timeScale, by: '--time-scale' };
  if (env.timeScale !== undefined) return { value: env.timeScale, by: 'PIS_TIME_SCALE' };
  if (file.timeScale !== undefined) return { value: file.timeScale, by: 'time-scale in the config file' };
  return undefined;
}

/**
 * The control API's /health may say the target's clock (docs/control-api.md).
 * Without a given time scale the run takes it, and says so; a given one that
 * differs would judge every timing check on the wrong clock, so the run stops.
 */
export function runTimeScale(cfg: TargetConfig, reported: number | undefined, given: GivenTimeScale | undefined): RunTimeScale {
  const kept = { settings: { timeScale: cfg.timeScale } };
  if (reported === undefined || cfg.bundledReference) return kept;
  const health = `${redactUrlUserinfo(cfg.controlUrl ?? '')}/health`;
  if (given) {
    // Arbitrary: equal to a part in a million, so 0.1 and 0.10000000000000001 agree.
    if (Math.abs(given.value - reported) <= 1e-6 * Math.max(given.value, reported)) return kept;
    throw new HarnessError('PIS_BAD_FLAG', `${given.by} says ${given.value}, but the control API's ${health} says the target runs at time scale ${reported}: ` +
      `give --time-scale ${reported}, or leave it out to use the target's.`);
  }
  process.stdout.write(`The target's clock runs at time scale ${reported} (from ${health}); the run uses it.\n`);
  return { settings: { timeScale: reported, timeScaleFromTarget: true }, source: `${health} (no --time-scale given)` };
}
