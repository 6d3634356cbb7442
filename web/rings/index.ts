// What the rest of web/ uses of this feature; other folders import it only from here.
export { RingBar } from './RingBar';
export { RingsView } from './RingsView';
export { ringsAt } from './rings';
export type { RingCopyState } from './rings';
