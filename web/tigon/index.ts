// What the rest of web/ uses of this feature; other folders import it only from here.
export { FirmwareView, shownCpus } from './FirmwareView';
export { PartitionSection } from './PartitionEditor';
export { ProfileView } from './ProfileView';
export { CPU_NAMES, cachedFirmwareIndex, cpuNow, registerAt, tigonSetup } from './firmware';
export { tigonEventColor } from './tigonPalette';
