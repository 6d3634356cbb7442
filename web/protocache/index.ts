// What the rest of web/ uses of this feature; other folders import it only from here.
export { ProtoCacheView } from './ProtoCacheView';
export { buildProtoIndex, cacheShapes, linesAt, packetAt } from './protocache';
