// What the rest of web/ uses of this feature; other folders import it only from here.
export { LedgerView, SequenceView, TablesView } from './OffloadViews';
export { ledgerAt, sequence, sequenceCounts, tablesAt } from './offloadView';
export { describeLedger, describeSequence, describeTables } from './describe';
