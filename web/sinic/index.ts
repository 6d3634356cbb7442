// What the rest of web/ uses of this feature; other folders import it only from here.
export { CpuView } from './CpuView';
export { RxPathView } from './RxPathView';
export { VnicsView } from './VnicsView';
export { CPU_PARTS, CPU_PART_LABELS, cpuBreakdown } from './cpuBreakdown';
export { cachedRxPath, packetAt, packetNow, rxSetup } from './rxPath';
export { cachedVnicIndex, fifoAt, stateCounts, vnicSetup, vnicsAt } from './vnics';
