// One palette for every view: a colour means the same purpose everywhere. This file and
// theme.css are the only places a view's colour is written (palette.test.ts fails on a colour
// literal elsewhere in web/).
//
// Two kinds of colour. The categorical ones below are literal and the same in both colour
// schemes: they fill bars, cells and tokens, and read on a dark panel as on a light one.
// Everything that follows the scheme (neutral greys, surfaces, navy, text in a categorical hue)
// is a theme.css custom property, `var(--c-rrggbb)` named after its light value, which SVG
// reads through fill and stroke; its dark value mirrors the lightness (see theme.css).
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
export const ALERT_INK = 'var(--c-a63d00)';
/** Waits and warnings (amber; distinct from ALERT for every colour vision). */
export const WARN = '#E6B800';

/** Host CPU tasks: 0 sending (driver), 1 interrupt handler (vermillion, like the interrupt line). */
export const CPU_TASK_COLORS = ['#0072B2', ALERT] as const;

/** Scheme-following neutrals and accents (theme.css): unknown purpose, mixed, navy, slate. */
/** Okabe and Ito's ninth colour (DMA Read Complete on the Tigon); near-white on the dark scheme. */
export const BLACK = 'var(--c-000000)';
export const NEUTRAL = 'var(--c-7a8494)';
export const NEUTRAL_LIGHT = 'var(--c-9aa3b2)';
export const NEUTRAL_DARK = 'var(--c-6b7588)';
export const NAVY = 'var(--c-233554)';
export const SLATE = 'var(--c-5a6b85)';
/** The web server's own work (timeline lanes, the request-rate chart). */
export const WEB_SERVER = 'var(--c-3b4d7a)';
/** A Tigon CPU spinning on the semaphore (timeline). */
export const SPIN = 'var(--c-f0b7c0)';
/** Secondary ink (app.css --ink-2): glyphs of legends, text on hatching. */
export const INK_2 = 'var(--ink-2)';
/** White ink on a categorical fill (which is the same in both schemes). */
export const ON_FILL = '#ffffff';
/** The progress bar across a frame token: a white veil over the categorical fill. */
export const FRAME_PROGRESS = 'rgba(255,255,255,.65)';
/** Empty and unknown slots (cache grid, VNICs), the paper of the turnaround hatch. */
export const SLOT_EMPTY = 'var(--c-eef1f5)';
export const SLOT_UNKNOWN = 'var(--c-c3c9d2)';
export const HATCH_PAPER = 'var(--c-ece6d8)';
export const UNKNOWN_PAPER = 'var(--c-f1f2f5)';
export const UNKNOWN_STROKE = 'var(--c-c4c9d2)';
/** The paper under a request's wait hatch, and under a Tigon CPU's spin hatch. */
export const WAIT_PAPER = 'var(--c-fdf1d6)';
export const SPIN_PAPER = 'var(--c-fbe9ec)';
/** Share bar of the spinning time (the partition editor). */
export const SPIN_BAR = 'var(--c-a8323f)';
/** An exported chart's paper, title and legend text (resolved with canvasColor). */
export const EXPORT_PAPER = 'var(--c-ffffff)';
export const EXPORT_TITLE = 'var(--c-1f2937)';
export const EXPORT_LABEL = 'var(--c-4a5568)';
/** The brand mark (the header's logo, as the manifest's icons): the same in both schemes. */
export const LOGO = { tile: '#233554', line: '#e8871e', a: '#4c78a8', b: '#3f9b5a' } as const;

export function purposeColor(purpose: number): string {
  const g = PURPOSE_GROUP[purpose];
  return g ? GROUP_COLORS[g] : NEUTRAL;
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
  BLACK,
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
  'var(--c-ffffff)', // idle: the panel's own colour in either scheme
];

/** Bus masters: NIC 1, NIC 2, … by instance; the host bridge; its split completions; the disk. */
export const NIC_COLORS: readonly string[] = ['#0072B2', '#E69F00', '#009E73', '#CC79A7'];
export const BRIDGE_COLOR = '#332288';
export const COMPLETER_COLOR = '#882255';
export const DISK_COLOR = '#8f8f8f';

export function nicColor(instance: number): string {
  return NIC_COLORS[instance % NIC_COLORS.length]!;
}

/** Dark ink on the categorical fills: darker than the page's ink, so vermillion labels reach 4.5:1. */
export const INK = '#0d1118';

/** The light-scheme value of a colour: itself, or the #rrggbb a `var(--c-rrggbb)` is named after. */
export function lightHex(color: string): string {
  const m = /^var\(--c-([0-9a-f]{6})\)$/i.exec(color);
  return m ? `#${m[1]!.toLowerCase()}` : color;
}

/**
 * Dark text on light fills, white on dark ones: whichever has the higher WCAG contrast with the
 * fill. `darkBias` above 1 prefers dark ink a little earlier (views with smaller text). On a
 * scheme-following fill (`var(--c-…)`) the ink follows the scheme too: the page's ink where the
 * light fill wants dark ink, the panel's colour where it wants white (the dark value mirrors
 * the fill's lightness, so the pair keeps its contrast).
 */
export function inkOn(color: string, darkBias = 1): string {
  const hex = lightHex(color);
  if (hex !== color) return inkOn(hex, darkBias) === INK ? 'var(--ink)' : 'var(--panel)';
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
  const onInk = (fill + 0.05) / (lum(0x0d / 255, 0x11 / 255, 0x18 / 255) + 0.05);
  return onInk * darkBias >= onWhite ? INK : ON_FILL;
}

/**
 * A categorical colour as text, the same hue in both schemes: theme.css's `--text-rrggbb`,
 * darkened to 4.5:1 on the light tints and lightened to 4.5:1 on the dark panels (the fallback,
 * for a colour theme.css does not list, is textInkOnWhite). A
 * scheme-following colour is its own text colour if it reads on white, else the secondary ink.
 */
export function textInk(color: string): string {
  const hex = lightHex(color);
  if (hex !== color) return textInkOnWhite(hex) === hex.toLowerCase() ? color : 'var(--ink-2)';
  const light = textInkOnWhite(hex);
  return /^#[0-9a-f]{6}$/i.test(hex)
    ? `var(--text-${hex.slice(1).toLowerCase()}, ${light})`
    : light;
}

/**
 * A colour of the palette darkened until it reads as text on white (WCAG 4.5:1): labels such as
 * "mailbox write (PIO)" keep their hue, yellow and orange included.
 */
export function textInkOnWhite(hex: string): string {
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
  idle: 'var(--c-e9edf3)',
} as const;
export type CpuPartName = keyof typeof CPU_PART_COLORS;

/** The states of a SINIC receive VNIC (VNIC_STATE_NAMES order). */
export const VNIC_STATE_COLORS: readonly string[] = [
  SLOT_EMPTY, // free
  '#F0E442', // posted: RxData written, waiting for a packet or the engine
  '#E69F00', // copying
  '#0072B2', // payload deferred: bound to a packet in the FIFO
  '#9AD0C2', // done: free again, Complete set
];

const resolved = new Map<string, string>();
if (typeof window !== 'undefined' && typeof window.matchMedia === 'function')
  window
    .matchMedia('(prefers-color-scheme: dark)')
    .addEventListener?.('change', () => resolved.clear());

/**
 * A colour for a canvas, which cannot read custom properties: a `var(--…)` token resolved
 * against the document's current scheme (its light value where there is no document).
 */
export function canvasColor(color: string): string {
  const m = /^var\((--[\w-]+)\)$/.exec(color);
  if (!m) return color;
  let c = resolved.get(m[1]!);
  if (c === undefined) {
    c =
      typeof document !== 'undefined'
        ? getComputedStyle(document.documentElement).getPropertyValue(m[1]!).trim()
        : '';
    if (c) resolved.set(m[1]!, c);
    else c = lightHex(color);
  }
  return c;
}

/** Okabe and Ito's categorical hues, by name: fills that read alike on both schemes' panels. */
export const OKABE_ITO = {
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  green: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  purple: '#CC79A7',
  grey: '#999999',
} as const;
/** The ETA+AIO view: Table 1's cycle bins (idle is the page's empty slot) and Fig 4's curves. */
export const ETA_BIN_PALETTE = {
  user: OKABE_ITO.purple,
  tcpip: OKABE_ITO.blue,
  ethernet: OKABE_ITO.green,
  kernel_other: OKABE_ITO.orange,
  ppe_other: OKABE_ITO.skyBlue,
  idle: SLOT_UNKNOWN,
} as const;
export const ETA_CURVE_COLORS: readonly string[] = [
  OKABE_ITO.blue,
  OKABE_ITO.vermillion,
  OKABE_ITO.green,
  OKABE_ITO.purple,
];
/** The protocol-cache view: one hue per layer (socket/user, TCP, UDP, IP, FDDI driver,
 * x-kernel msg, x-kernel event, checksum) and the latency's parts. */
export const PROTO_LAYER_COLORS: readonly string[] = [
  OKABE_ITO.orange,
  OKABE_ITO.blue,
  OKABE_ITO.skyBlue,
  OKABE_ITO.green,
  OKABE_ITO.purple,
  OKABE_ITO.yellow,
  OKABE_ITO.grey,
  OKABE_ITO.vermillion,
];
export const PROTO_STALL_COLORS = {
  cpu: OKABE_ITO.blue,
  l2: OKABE_ITO.orange,
  memory: OKABE_ITO.vermillion,
} as const;
/** A data line's stripe on the cache grid's canvas, over any layer's hue. */
export const DATA_STRIPE = 'rgba(20,24,40,0.75)';
