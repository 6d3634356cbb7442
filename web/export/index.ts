// What the rest of web/ uses of this feature; other folders import it only from here.
export { ChartExportMenu, RunDownloads } from './ExportMenu';
export type { LegendEntry } from './download';
export { exportBaseName, seriesCsv, sweepCsv } from './exports';
