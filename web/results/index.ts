// What the rest of web/ uses of this feature; other folders import it only from here.
export { BasisTag, ChecksPanel, relativeText } from './ChecksPanel';
export { ResultsPanel, metricText, parseOrigin } from './ResultsPanel';
export { RunStatus } from './RunStatus';
