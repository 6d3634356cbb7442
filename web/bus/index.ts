// What the rest of web/ uses of this feature; other folders import it only from here.
export { BusView } from './BusView';
export { Waveform, useBusPhaseIndex, windowOf } from './Waveform';
export {
  CATEGORY_LABELS,
  CATEGORY_RESULT_KEYS,
  busPhaseIndex,
  cyclesUpTo,
  describeTenure,
  signalsAt,
  tenureNear,
} from './busPhases';
export type { BusPhaseIndex } from './busPhases';
export { IDLE, barFromCycles, barFromResults, stackSegments } from './busUtil';
export type { UtilBar } from './busUtil';
