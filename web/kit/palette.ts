// One palette for every view: a colour means the same purpose everywhere.
//
// The categorical colours are Okabe and Ito's colour-blind-safe set (blue #0072B2, orange
// #E69F00, bluish green #009E73, reddish purple #CC79A7, sky blue #56B4E9, yellow #F0E442,
// vermillion #D55E00, black), so that a viewer with protanopia, deuteranopia or tritanopia still
// tells them apart (palette.test.ts simulates each and measures CIEDE2000 between every pair).
// No view relies on colour alone: legends name every colour, and shapes, hatching and labels
// carry the same meaning.
import { PURPOSE_GROUP, type PurposeGroup } from '../trace/traceKinds';

export const GROUP_COLORS: Record<PurposeGroup, string> = {
  descriptor: '#0072B2', // descriptor fetch (send and receive rings)
  dataFetch: '#E69F00', // outgoing data: fetched for sending, frames to the peer
  dataWrite: '#009E73', // incoming data: frames from the peer, written to host memory
  returnBd: '#CC79A7', // return descriptors
  index: '#56B4E9', // consumer / producer index writes
  mailbox: '#F0E442', // PIO mailbox writes from the driver
  disk: '#6b6f7a', // the disk controller's DMA (background traffic)
};

/** Drops, interrupts, evictions (vermillion); ALERT_INK for text in that colour (6.4:1). */
export const ALERT = '#D55E00';
export const ALERT_INK = '#a63d00';
/** Waits and warnings (amber; distinct from ALERT for every colour vision). */
export const WARN = '#E6B800';

/** Host CPU tasks: 0 sending (driver), 1 interrupt handler (vermillion, like the interrupt line). */
export const CPU_TASK_COLORS = ['#0072B2', ALERT] as const;

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
  bidirectional: '#0072B2',
};
/** Chart lines in order (firmware variants, clocks, NIC models …); markers differ in shape too. */
export const SERIES_FALLBACK: readonly string[] = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#000000',
];
const FALLBACK = SERIES_FALLBACK;

export function seriesColor(name: string, i: number): string {
  return SERIES[name] ?? FALLBACK[i % FALLBACK.length]!;
}

/**
 * Bus cycle categories (BUS_CATEGORY_NAMES order), in the thesis's Figs 4.6/4.7 spirit: what the
 * bus carried in cool colours (content darkest), the overheads in warm ones, idle unfilled.
 */
export const BUS_CATEGORY_COLORS: readonly string[] = [
  '#0072B2', // packet content
  '#56B4E9', // network headers
  '#B9DDF5', // application headers
  '#009E73', // descriptors and ring indices
  '#8f8f8f', // other devices
  '#F0E442', // arbitration
  '#E69F00', // address
  '#D55E00', // wait/stall
  '#CC79A7', // retry
  '#b9a27a', // turnaround (drawn hatched)
  '#ffffff', // idle
];

/** Bus masters: NIC 1, NIC 2, … by instance; the host bridge; its split completions; the disk. */
export const NIC_COLORS: readonly string[] = ['#0072B2', '#E69F00', '#009E73', '#CC79A7'];
export const BRIDGE_COLOR = '#332288';
export const COMPLETER_COLOR = '#882255';
export const DISK_COLOR = '#8f8f8f';

export function nicColor(instance: number): string {
  return NIC_COLORS[instance % NIC_COLORS.length]!;
}

export const INK = '#1c2433';

/**
 * Dark text on light fills, white on dark ones: whichever has the higher WCAG contrast with the
 * fill. `darkBias` above 1 prefers dark ink a little earlier (views with smaller text).
 */
export function inkOn(hex: string, darkBias = 1): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return INK;
  const lum = (r: number, g: number, b: number) => {
    const lin = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h!, 16) / 255) as [
    number,
    number,
    number,
  ];
  const fill = lum(r, g, b);
  const onWhite = 1.05 / (fill + 0.05);
  const onInk = (fill + 0.05) / (lum(0x1c / 255, 0x24 / 255, 0x33 / 255) + 0.05);
  return onInk * darkBias >= onWhite ? INK : '#ffffff';
}

/**
 * A colour of the palette darkened until it reads as text on white (WCAG 4.5:1): labels such as
 * "mailbox write (PIO)" keep their hue, yellow and orange included.
 */
export function textInk(hex: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return INK;
  const rgb = [m[1], m[2], m[3]].map((h) => parseInt(h!, 16));
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  for (let k = 1; k > 0; k -= 0.02) {
    const c = rgb.map((v) => Math.round(v * k));
    const l = 0.2126 * lin(c[0]!) + 0.7152 * lin(c[1]!) + 0.0722 * lin(c[2]!);
    if (1.05 / (l + 0.05) >= 4.5)
      return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  }
  return INK;
}

/**
 * The host CPU's time by part (SINIC paper Figs 6 and 9: driver, TCP/IP stack, copy, user) and
 * idle, for the CPU-time bars and the receive path's CPU steps.
 */
export const CPU_PART_COLORS = {
  driver: '#0072B2',
  stack: '#009E73',
  copy: '#E69F00',
  user: '#CC79A7',
  idle: '#e9edf3',
} as const;
export type CpuPartName = keyof typeof CPU_PART_COLORS;

/** The states of a SINIC receive VNIC (VNIC_STATE_NAMES order). */
export const VNIC_STATE_COLORS: readonly string[] = [
  '#eef1f5', // free
  '#F0E442', // posted: RxData written, waiting for a packet or the engine
  '#E69F00', // copying
  '#0072B2', // payload deferred: bound to a packet in the FIFO
  '#9AD0C2', // done: free again, Complete set
];
