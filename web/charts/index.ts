// What the rest of web/ uses of this feature; other folders import it only from here.
export { Axes } from './Chart';
export { ChartPanel, sweepAxisLabel } from './ChartPanel';
export { SweepPickContext, SweepPointPicker, sweepPointLabel } from './SweepPointPicker';
export type { SweepPick } from './SweepPointPicker';
export { DEFAULT_BOX, groupSweep, seriesStart } from './chart';
export type { ChartBox, Tick } from './chart';
