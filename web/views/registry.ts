// The one registry of views: every view the app can show, by the id scenario files and links
// use, with its title, the trace kinds that give it something to draw (both from the core's
// definition, core-cpp/trace/trace_kinds.json, whose list the core validates a scenario's views
// against), its React component, its error boundary and its text description. The scenario page,
// the A/B page, the Views menu and the link codec all read it from here.
import type { ComponentType } from 'react';
import { VIEWS, type ViewId } from '../trace/records.gen';
import { BottleneckView } from '../webserver';
import { BusView } from '../bus';
import { CacheView } from '../webserver';
import { CpuView } from '../sinic';
import { EtaView, describeEta } from '../eta';
import { FirmwareView } from '../tigon';
import { LedgerView, SequenceView, TablesView } from '../offload';
import { describeLedger, describeSequence, describeTables } from '../offload';
import { ProfileView } from '../tigon';
import { ProtoCacheView } from '../protocache';
import { RequestPathView } from '../webserver';
import { RingsView } from '../rings';
import { RxPathView } from '../sinic';
import { SystemDiagram } from '../diagram';
import { TimelineView } from '../timeline';
import { VnicsView } from '../sinic';
import { Waveform } from '../bus';
import { formatTime } from '../kit/format';
import type { DoneRun } from '../run/store';
import * as describe from './viewDescriptions';
import type { Describer } from './viewDescriptions';

export type { ViewId };

export interface ViewEntry {
  readonly id: ViewId;
  readonly title: string;
  /** Trace kinds that give it something to draw, or what else it needs. */
  readonly needs: readonly string[] | string;
  /** Its panel's class suffix (panel-<panel>), which the tour scrolls to. */
  readonly panel: string;
  /** Its error boundary's name, as the error message says it. */
  readonly boundary: string;
  /** A view drawn as a plain panel; chart, events and results are laid out by the page. */
  readonly View?: ComponentType;
  /** It shows one sweep point, which the page lets the viewer pick. */
  readonly picksSweepPoint?: boolean;
  /** Its state in words at the cursor, for screen readers. */
  readonly describe?: Describer;
}

type Extra = Omit<ViewEntry, 'id' | 'title' | 'needs'>;

// Every id of the definition must be here (a missing one fails to type-check).
const EXTRA: Record<ViewId, Extra> = {
  diagram: {
    panel: 'diagram',
    boundary: 'system diagram',
    View: SystemDiagram,
    describe: describe.diagram,
  },
  rings: { panel: 'rings', boundary: 'rings view', View: RingsView, describe: describe.rings },
  chart: { panel: 'chart', boundary: 'chart', describe: describe.chart },
  events: { panel: 'events', boundary: 'event log' },
  timeline: { panel: 'timeline', boundary: 'timeline', View: TimelineView },
  results: { panel: 'results', boundary: 'results' },
  waveform: {
    panel: 'wave',
    boundary: 'bus waveform',
    View: Waveform,
    describe: describe.waveform,
  },
  bus: { panel: 'bus', boundary: 'bus utilisation', View: BusView, describe: describe.bus },
  firmware: {
    panel: 'firmware',
    boundary: 'firmware view',
    View: FirmwareView,
    describe: describe.firmware,
  },
  profile: { panel: 'profile', boundary: 'handler profile', View: ProfileView },
  cache: { panel: 'cache', boundary: 'cache view', View: CacheView, describe: describe.cache },
  protocache: { panel: 'protocache', boundary: 'host cache view', View: ProtoCacheView },
  request: {
    panel: 'request',
    boundary: 'request path',
    View: RequestPathView,
    picksSweepPoint: true,
    describe: describe.request,
  },
  bottleneck: {
    panel: 'bottleneck',
    boundary: 'bottleneck panel',
    View: BottleneckView,
    picksSweepPoint: true,
  },
  rxpath: {
    panel: 'rxpath',
    boundary: 'receive path',
    View: RxPathView,
    describe: describe.rxpath,
  },
  vnics: {
    panel: 'vnics',
    boundary: 'registers and VNICs',
    View: VnicsView,
    describe: describe.vnics,
  },
  cpu: { panel: 'cpu', boundary: 'CPU breakdown', View: CpuView, describe: describe.cpu },
  eta: { panel: 'eta', boundary: 'ETA+AIO view', View: EtaView, describe: describeEta },
  ledger: { panel: 'ledger', boundary: 'ledger', View: LedgerView, describe: describeLedger },
  sequence: {
    panel: 'sequence',
    boundary: 'sequence diagram',
    View: SequenceView,
    describe: describeSequence,
  },
  tables: {
    panel: 'tables',
    boundary: 'descriptor tables',
    View: TablesView,
    describe: describeTables,
  },
};

/** Every view, in the page's order. */
export const REGISTRY: readonly ViewEntry[] = VIEWS.map((v) => ({ ...v, ...EXTRA[v.id] }));

const BY_ID = new Map<string, ViewEntry>(REGISTRY.map((v) => [v.id, v]));

/** The view of this id, or undefined for a name no view has. */
export function viewEntry(id: string): ViewEntry | undefined {
  return BY_ID.get(id);
}

/** A view's panel class suffix ("waveform" → "wave"), for the tour to scroll to it. */
export function panelOf(id: string): string {
  return BY_ID.get(id)?.panel ?? id;
}

/** A view's description at the cursor ('' for a view without one); a describer that throws
 * yields a plain fallback. */
export function describeView(view: string, run: DoneRun, cursor: number, speed: number): string {
  const d = BY_ID.get(view)?.describe;
  if (!d) return '';
  try {
    return d(run, cursor, speed);
  } catch {
    return `The ${view} view at ${formatTime(cursor)}.`;
  }
}
