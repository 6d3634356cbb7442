// Colours of the Tigon views, taken from the one palette (palette.ts) so that an event keeps the
// colour of what it handles: Send Data Ready the outgoing data, Receive Complete the incoming
// data, the BD Ready events the descriptors, Mailbox the mailbox writes, and so on.
import {
  ALERT,
  BLACK,
  BUS_CATEGORY_COLORS,
  GROUP_COLORS,
  inkOn as paletteInkOn,
  NAVY,
  NEUTRAL,
} from '../kit/palette';

/** One colour per Tigon event, index = event id (TIGON_EVENTS order). */
export const TIGON_EVENT_COLORS: readonly string[] = [
  GROUP_COLORS.dataFetch, // Send Data Ready: the frame's data fetched for sending
  GROUP_COLORS.dataWrite, // Receive Complete: a frame from the wire
  GROUP_COLORS.descriptor, // Send BD Ready
  BUS_CATEGORY_COLORS[2]!, // Receive BD Ready (the light descriptor blue)
  GROUP_COLORS.mailbox, // Mailbox
  GROUP_COLORS.index, // Update Send Consumer: an index write
  GROUP_COLORS.returnBd, // Update Receive Return Producer: return descriptors
  BLACK, // DMA Read Complete (black: the ninth colour of Okabe and Ito's set)
  ALERT, // DMA Write Complete (vermillion)
];

export function tigonEventColor(event: number): string {
  return TIGON_EVENT_COLORS[event] ?? NEUTRAL;
}

/** CPU A and CPU B where the two are compared (the profile's share bar). */
export const TIGON_CPU_COLORS = [NAVY, BUS_CATEGORY_COLORS[1]!] as const;

/** Ink for labels on event colours (palette's inkOn, leaning to dark ink for the small labels). */
export function inkOn(hex: string): string {
  return paletteInkOn(hex, 1.15);
}
