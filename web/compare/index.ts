// What the rest of web/ uses of this feature; other folders import it only from here.
export { AbButton } from './AbButton';
export { AbPage } from './AbPage';
export { comparisonOf } from './ab';
