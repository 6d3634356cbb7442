// What the rest of web/ uses of this feature; other folders import it only from here.
export { EventLog } from './EventLog';
export { PlaybackBar } from './PlaybackBar';
