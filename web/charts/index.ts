// What the rest of web/ uses of this feature; other folders import it only from here.
export { Axes } from './Chart';
export { ChartPanel } from './ChartPanel';
export { SweepPickContext, SweepPointPicker, sweepPointLabel } from './SweepPointPicker';
export type { SweepPick } from './SweepPointPicker';
export { DEFAULT_BOX } from './chart';
export type { ChartBox, Tick } from './chart';
