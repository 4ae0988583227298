// Pictures of a report, each drawn from results.json alone so that `report DIR`
// redraws them. A figure returns '' when it has nothing to show for a run.
import type { RunResults } from '../../results/model.ts';
import { latencyFigure } from './latency.ts';
import { timelineFigure } from './timeline.ts';

export type Figure = (r: RunResults) => string;

export const FIGURES: Figure[] = [latencyFigure, timelineFigure];
