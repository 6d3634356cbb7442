// What the rest of web/ uses of this feature; other folders import it only from here.
export { EtaView } from './EtaView';
export { describeEta, etaBinBars, etaCurves, etaLanes } from './etaView';
