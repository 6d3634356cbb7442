// One palette for every view: a colour means the same purpose everywhere.
import { PURPOSE_GROUP, type PurposeGroup } from '../engine/traceKinds';

export const GROUP_COLORS: Record<PurposeGroup, string> = {
  descriptor: '#4c78a8', // descriptor fetch (send and receive rings)
  dataFetch: '#e8871e', // outgoing data: fetched for sending, frames to the peer
  dataWrite: '#3f9b5a', // incoming data: frames from the peer, written to host memory
  returnBd: '#9467bd', // return descriptors
  index: '#2a9d9a', // consumer / producer index writes
  mailbox: '#8c6d4f', // PIO mailbox writes from the driver
  disk: '#6b6f7a', // the disk controller's DMA (background traffic)
};

export const ALERT = '#d1495b';
export const WARN = '#c98a0c';

/** Host CPU tasks: 0 sending (driver), 1 interrupt handler (red, like the interrupt line). */
export const CPU_TASK_COLORS = ['#5570a8', ALERT] as const;

export function purposeColor(purpose: number): string {
  const g = PURPOSE_GROUP[purpose];
  return g ? GROUP_COLORS[g] : '#7a8494';
}

export const FRAME_COLORS = { tx: GROUP_COLORS.dataFetch, rx: GROUP_COLORS.dataWrite } as const;

/** Ring accents: send = outgoing data, receive = incoming data, return = return descriptors. */
export const RING_COLORS = [
  GROUP_COLORS.dataFetch,
  GROUP_COLORS.dataWrite,
  GROUP_COLORS.returnBd,
] as const;

const SERIES: Record<string, string> = {
  send: GROUP_COLORS.dataFetch,
  receive: GROUP_COLORS.dataWrite,
  bidirectional: '#3b4d7a',
};
const FALLBACK = ['#3b4d7a', '#e8871e', '#3f9b5a', '#9467bd', '#2a9d9a', '#8c6d4f'];

export function seriesColor(name: string, i: number): string {
  return SERIES[name] ?? FALLBACK[i % FALLBACK.length]!;
}

/**
 * Bus cycle categories (BUS_CATEGORY_NAMES order), in the thesis's Figs 4.6/4.7 spirit: what the
 * bus carried in cool colours (content darkest), the overheads in warm ones, idle unfilled.
 */
export const BUS_CATEGORY_COLORS: readonly string[] = [
  '#1f5fa8', // packet content
  '#5b9bd5', // network headers
  '#a3c8ea', // application headers
  '#2a9d9a', // descriptors and ring indices
  '#7d8591', // other devices
  '#f0c419', // arbitration
  '#ef8a17', // address
  '#d1495b', // wait/stall
  '#8e3b8e', // retry
  '#b9a27a', // turnaround
  '#ffffff', // idle
];

/** Bus masters: NIC 1, NIC 2, … by instance; the host bridge; its split completions; the disk. */
const NIC_COLORS = ['#2f5fa7', '#c0562b', '#4f8a3c', '#7a4fa3'];
export const BRIDGE_COLOR = '#5a6b85';
export const COMPLETER_COLOR = '#7a5aa8';
export const DISK_COLOR = '#6b6f7a';

export function nicColor(instance: number): string {
  return NIC_COLORS[instance % NIC_COLORS.length]!;
}

/**
 * Dark text on light fills, white on dark ones: the fill's relative luminance against
 * `lightAbove` (views with smaller text switch to dark ink a little earlier).
 */
export function inkOn(hex: string, lightAbove = 0.58): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return '#1c2433';
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h!, 16) / 255) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > lightAbove ? '#1c2433' : '#ffffff';
}

/**
 * The host CPU's time by part (SINIC paper Figs 6 and 9: driver, TCP/IP stack, copy, user) and
 * idle, for the CPU-time bars and the receive path's CPU steps.
 */
export const CPU_PART_COLORS = {
  driver: '#3b5ba9',
  stack: '#3f9b8f',
  copy: '#e07b39',
  user: '#8a63b8',
  idle: '#e9edf3',
} as const;
export type CpuPartName = keyof typeof CPU_PART_COLORS;

/** The states of a SINIC receive VNIC (VNIC_STATE_NAMES order). */
export const VNIC_STATE_COLORS: readonly string[] = [
  '#eef1f5', // free
  '#f2c14e', // posted: RxData written, waiting for a packet or the engine
  '#e07b39', // copying
  '#3b5ba9', // payload deferred: bound to a packet in the FIFO
  '#bfe0c8', // done: free again, Complete set
];
