// One palette for every view: a colour means the same purpose everywhere.
import { PURPOSE_GROUP, type PurposeGroup } from '../engine/traceKinds';

export const GROUP_COLORS: Record<PurposeGroup, string> = {
  descriptor: '#4c78a8', // descriptor fetch (send and receive rings)
  dataFetch: '#e8871e', // outgoing data: fetched for sending, frames to the peer
  dataWrite: '#3f9b5a', // incoming data: frames from the peer, written to host memory
  returnBd: '#9467bd', // return descriptors
  index: '#2a9d9a', // consumer / producer index writes
  mailbox: '#8c6d4f', // PIO mailbox writes from the driver
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
