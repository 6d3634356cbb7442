// What the rest of web/ uses of this feature; other folders import it only from here.
export { EventLog } from './EventLog';
export { PlaybackBar } from './PlaybackBar';
export { INITIAL_NAV_STATE, navNote, playInput, playStep } from './breakpoints';
export type { NavState } from './breakpoints';
