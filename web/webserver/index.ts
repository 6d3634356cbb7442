// What the rest of web/ uses of this feature; other folders import it only from here.
export { AccessLogPanel, engineLog, isLogPage, needsAccessLog } from './AccessLogPanel';
export { BottleneckView } from './BottleneckView';
export { CacheView } from './CacheView';
export { RequestPathView } from './RequestPathView';
export type { ParsedLog } from './accessLog';
export {
  cacheSetup,
  cachedCacheGridIndex,
  countsUpTo,
  formatBytes,
  requestAt as requestAtInCacheGrid,
  requestNow,
} from './cacheGrid';
export {
  cachedRequestPathIndex,
  currentSteps,
  requestAt as requestAtInRequestPath,
} from './requestPath';
