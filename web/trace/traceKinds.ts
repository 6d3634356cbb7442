// The event log's view of the trace kinds, on top of web/trace/records.gen.ts (generated from
// core-cpp/trace/trace_kinds.json, the one definition): field docs by column, lookup tables,
// and how to render a field for people.

import {
  KINDS,
  K as GENERATED_K,
  TABLES,
  column,
  type FieldDef,
  type KindName,
  type TraceColumns,
} from './records.gen';

export interface FieldDoc {
  /** Field name shown in the event log. */
  name: string;
  /** How to render the raw uint32: a lookup table, a component/purpose name, or a number. */
  format?:
    | 'component'
    | 'purpose'
    | 'ring'
    | 'copy'
    | 'mailbox'
    | 'direction'
    | 'causes'
    | 'bytes'
    | 'busPhase'
    | 'busCategory'
    | 'tigonEvent'
    | 'tigonPath'
    | 'tigonBits'
    | string[];
}

export interface KindDoc {
  name: string;
  /** Step of the thesis' send (S1–S6) or receive (R1–R4) sequence, when the kind is one. */
  step?: string;
  /** Short human description. */
  doc: string;
  /** Field meanings for a..e (undefined = unused). */
  fields: [FieldDoc?, FieldDoc?, FieldDoc?, FieldDoc?, FieldDoc?];
}

/** Tables the event log renders with a formatter of its own rather than the table's names. */
const TABLE_FORMAT: Partial<Record<string, FieldDoc['format']>> = {
  component: 'component',
  purpose: 'purpose',
  ring: 'ring',
  copy: 'copy',
  mailbox: 'mailbox',
  direction: 'direction',
  busPhase: 'busPhase',
  busCategory: 'busCategory',
  tigonEvent: 'tigonEvent',
  tigonPath: 'tigonPath',
};

function formatOf(f: FieldDef): FieldDoc['format'] {
  if (f.type === 'bits') return f.table === 'tigonEvent' ? 'tigonBits' : 'causes';
  if (f.table) return TABLE_FORMAT[f.table] ?? [...TABLES[f.table].names];
  return f.unit === 'bytes' ? 'bytes' : undefined;
}

/** NicRegister field a (core-cpp/sinic/sinic_regs.hpp NicReg). */
export const NIC_REGISTER_NAMES = TABLES.nicRegister.names;
/** NicRegister field b of a device-wide access. */
export const ANY_VNIC = 0xffff;
/** VnicState field b (sinic_regs.hpp VnicRx). */
export const VNIC_STATE_NAMES = TABLES.vnicState.names;

/** Every kind's fields by column, from the generated definition (web/trace/records.gen.ts). */
export const TRACE_KINDS: readonly KindDoc[] = KINDS.map((k) => {
  const fields: KindDoc['fields'] = [undefined, undefined, undefined, undefined, undefined];
  for (const f of k.fields) {
    if (f.words === 2) {
      fields[f.column] = { name: f.columnNames?.[0] ?? `${f.name} (low)` };
      fields[f.column + 1] = { name: f.columnNames?.[1] ?? `${f.name} (high)` };
    } else {
      const format = formatOf(f);
      fields[f.column] = format === undefined ? { name: f.name } : { name: f.name, format };
    }
  }
  return { name: k.name, ...(k.step ? { step: k.step } : {}), doc: k.doc, fields };
});

export const KIND_NAMES: readonly string[] = TRACE_KINDS.map((k) => k.name);

/** Kind ids by name, e.g. K.BusTxnStart === 4. */
export const K: Readonly<Record<KindName, number>> = GENERATED_K;

/** Component names as the core spells them, index = component id. */
export const COMPONENT_NAMES: readonly string[] = TABLES.component.names;

export const C = {
  HostCpu: 0,
  Driver: 1,
  Bus: 2,
  Nic: 3,
  DmaRead: 4,
  DmaWrite: 5,
  MacTx: 6,
  MacRx: 7,
  WireTx: 8,
  WireRx: 9,
  Peer: 10,
  HostBridge: 11,
  Disk: 12,
  TigonCpu: 13,
  Sram: 14,
} as const;

/** Component fields carry the device instance in their high byte (the second NIC is 1). */
export function componentKind(field: number): number {
  return field & 0xff;
}
export function componentInstance(field: number): number {
  return field >>> 8;
}

export const COMPONENT_LABELS: readonly string[] = TABLES.component.extra ?? [];

/** What a bus transaction or DMA carries (NICSIM_PURPOSES), index = purpose id. */
export const PURPOSE_NAMES: readonly string[] = TABLES.purpose.names;

/** Phases of a bus tenure (NICSIM_BUS_PHASES), index = phase id. */
export const BUS_PHASE_NAMES: readonly string[] = TABLES.busPhase.names;

/** Bus cycle categories (NICSIM_BUS_CATEGORIES), index = category id. */
export const BUS_CATEGORY_NAMES: readonly string[] = TABLES.busCategory.names;

export const P = {
  SendBdFetch: 0,
  SendDataFetch: 1,
  RecvBdFetch: 2,
  RecvDataWrite: 3,
  ReturnBdWrite: 4,
  SendConsumerWrite: 5,
  ReturnProducerWrite: 6,
  MailboxPio: 7,
  DiskTransfer: 8,
  RegisterRead: 9,
} as const;

/** Bus phase ids (NICSIM_BUS_PHASES). */
export const BP = {
  Arbitration: 0,
  Address: 1,
  DualAddress: 2,
  Attribute: 3,
  Turnaround: 4,
  Wait: 5,
  Data: 6,
  Stop: 7,
  Idle: 8,
  SplitResponse: 9,
  BusIdle: 10,
} as const;

/** Bus cycle category ids (NICSIM_BUS_CATEGORIES). */
export const BC = {
  Content: 0,
  NetworkHeaders: 1,
  AppHeaders: 2,
  Descriptors: 3,
  OtherDevices: 4,
  Arbitration: 5,
  Address: 6,
  Wait: 7,
  Retry: 8,
  Turnaround: 9,
  Idle: 10,
} as const;

/** The six colour groups used by every view (legend order). */
export type PurposeGroup =
  'descriptor' | 'dataFetch' | 'dataWrite' | 'returnBd' | 'index' | 'mailbox' | 'disk';

export const PURPOSE_GROUP: readonly PurposeGroup[] = [
  'descriptor',
  'dataFetch',
  'descriptor',
  'dataWrite',
  'returnBd',
  'index',
  'index',
  'mailbox',
  'disk',
  'index',
];

export const GROUP_LABELS: Record<PurposeGroup, string> = {
  descriptor: 'descriptor fetch',
  dataFetch: 'data fetch (send)',
  dataWrite: 'data write (receive)',
  returnBd: 'return descriptor',
  index: 'index write',
  mailbox: 'mailbox write',
  disk: 'disk transfer',
};

/** Direction of the data a purpose carries across the bus. */
export function purposeTowardsNic(purpose: number): boolean {
  return (
    purpose === P.SendBdFetch ||
    purpose === P.SendDataFetch ||
    purpose === P.RecvBdFetch ||
    purpose === P.MailboxPio
  );
}

export const RING_NAMES: readonly string[] = TABLES.ring.names;
export const COPY_NAMES: readonly string[] = TABLES.copy.names;
export const MAILBOX_NAMES: readonly string[] = TABLES.mailbox.names;
export const DIRECTION_NAMES: readonly string[] = TABLES.direction.names;

export function kindName(kind: number): string {
  return KIND_NAMES[kind] ?? `kind ${kind}`;
}

/** Components that belong to one NIC (and its driver, wire and peer). */
const PER_NIC = new Set<number>([
  C.Driver,
  C.Nic,
  C.DmaRead,
  C.DmaWrite,
  C.MacTx,
  C.MacRx,
  C.WireTx,
  C.WireRx,
  C.Peer,
]);

/** "DMA read", "NIC 2 DMA read", "NIC 2", "peer 2", "host bridge (split completions)". */
export function componentLabel(c: number): string {
  const kind = componentKind(c);
  const label = COMPONENT_LABELS[kind] ?? `component ${c}`;
  const instance = componentInstance(c);
  if (instance === 0) return label;
  if (kind === C.Nic) return `NIC ${instance + 1}`;
  if (kind === C.Peer) return `peer ${instance + 1}`;
  if (kind === C.HostBridge && instance === 1) return 'host bridge (split completions)';
  if (PER_NIC.has(kind)) return `NIC ${instance + 1} ${label}`;
  return `${label} ${instance + 1}`;
}

/**
 * The Tigon firmware's events (Table 3.1) in event-register bit order (core-cpp/nic/tigon/
 * firmware.hpp; checked against the wasm build's tigonInfo()). PRI picks the highest set bit.
 */
export const TIGON_EVENTS: readonly { name: string; label: string; short: string }[] =
  TABLES.tigonEvent.ids.map((name, i) => ({
    name,
    label: TABLES.tigonEvent.names[i]!,
    short: TABLES.tigonEvent.extra?.[i] ?? name,
  }));

/** Handler code paths (NICSIM_TIGON_PATHS), index = path id in TigonHandler records. */
export const TIGON_PATHS: readonly string[] = TABLES.tigonPath.names;

function tigonBits(bits: number): string {
  const out: string[] = [];
  for (let i = TIGON_EVENTS.length - 1; i >= 0; i--)
    if (bits & (1 << i)) out.push(TIGON_EVENTS[i]!.short);
  return out.length ? out.join(' ') : 'none';
}

export function purposeName(p: number): string {
  return PURPOSE_NAMES[p] ?? `purpose ${p}`;
}

function causes(bits: number): string {
  const out: string[] = [];
  if (bits & 1) out.push('send');
  if (bits & 2) out.push('receive');
  return out.length ? out.join('+') : String(bits);
}

/** Renders one field value for humans, following the kind's field doc. */
export function formatField(doc: FieldDoc, v: number): string {
  const f = doc.format;
  if (Array.isArray(f)) return f[v] ?? String(v);
  switch (f) {
    case 'component':
      return componentLabel(v);
    case 'purpose':
      return purposeName(v);
    case 'ring':
      return `${RING_NAMES[v] ?? v} ring`;
    case 'copy':
      return COPY_NAMES[v] ?? String(v);
    case 'mailbox':
      return MAILBOX_NAMES[v] ?? String(v);
    case 'direction':
      return DIRECTION_NAMES[v] ?? String(v);
    case 'causes':
      return causes(v);
    case 'bytes':
      return `${v} B`;
    case 'busPhase':
      return BUS_PHASE_NAMES[v] ?? String(v);
    case 'busCategory':
      return BUS_CATEGORY_NAMES[v] ?? String(v);
    case 'tigonEvent':
      return TIGON_EVENTS[v]?.label ?? String(v);
    case 'tigonPath':
      return TIGON_PATHS[v] ?? String(v);
    case 'tigonBits':
      return tigonBits(v);
    default:
      return String(v);
  }
}

/** Named, rendered fields of a record, e.g. [["ring","send ring"],["copy","host"],...]. */
export function describeFields(
  kind: number,
  values: readonly number[],
  component?: number,
): Array<[string, string]> {
  // BusRequest: the core records the requesting master as the record's component and the packet
  // in field a (the kind list's doc says a=master); read whichever the record carries.
  if (kind === K.BusRequest && component !== undefined && componentKind(component) !== C.Bus)
    return [['packet', String(values[0] ?? 0)]];
  const doc = TRACE_KINDS[kind];
  if (!doc) return values.map((v, i) => ['abcde'[i]!, String(v)]);
  const out: Array<[string, string]> = [];
  doc.fields.forEach((fd, i) => {
    if (fd) out.push([fd.name, formatField(fd, values[i] ?? 0)]);
  });
  if (kind === K.HostCpuBusy) {
    const dur = (values[1] ?? 0) + (values[2] ?? 0) * 2 ** 32;
    return [out[0]!, ['duration', `${dur} ps`]];
  }
  return out;
}

/** Record i's words by column, read through the generated definition (for code that shows any
 * record's fields: the event log, the packet inspector, exports). */
export function recordColumns(trace: TraceColumns, i: number): number[] {
  const out: number[] = [];
  for (let c = 0; c < 5; c++) out.push(column(trace, c, i));
  return out;
}

/** Record i's fields named and formatted for people (see describeFields). */
export function describeRecord(
  trace: TraceColumns & { readonly component: ArrayLike<number> },
  i: number,
): Array<[string, string]> {
  return describeFields(trace.kind[i]!, recordColumns(trace, i), trace.component[i]);
}
