// "What is happening now": a plain-language line per activity at the cursor, tagged with the
// send (S1–S6) and receive (R1–R4) steps of the thesis (§1.3, §1.4). Pure, like every view model.
import { K, P } from '../engine/traceKinds';
import type { DiagramState } from './diagramState';
import { recentInstants, type TraceIndex } from './traceIndex';

export interface Activity {
  key: string;
  step: string;
  text: string;
  /** Purpose id for the colour, or -1 for frames/alerts (see kind). */
  purpose: number;
  kind: 'bus' | 'tx' | 'rx' | 'host' | 'alert';
}

const BUS_TEXT: Record<number, [string, (bytes: number, packet: number) => string]> = {
  [P.SendBdFetch]: ['S3', (b) => `NIC fetches send descriptors by DMA read (${b} B)`],
  [P.SendDataFetch]: [
    'S4',
    (b, p) => `NIC DMA-reads packet ${p}’s data into its transmit buffer (${b} B)`,
  ],
  [P.RecvBdFetch]: ['pre', (b) => `NIC fetches empty receive-buffer descriptors (${b} B)`],
  [P.RecvDataWrite]: [
    'R2',
    (b, p) => `NIC DMA-writes packet ${p} into a host receive buffer (${b} B)`,
  ],
  [P.ReturnBdWrite]: [
    'R3',
    (_b, p) => `NIC writes the return descriptor of packet ${p} to host memory`,
  ],
  [P.SendConsumerWrite]: [
    'S6',
    () => 'NIC tells the driver which sends are done (send consumer index)',
  ],
  [P.ReturnProducerWrite]: [
    'R4',
    () => 'NIC publishes the return ring’s producer index to host memory',
  ],
  [P.MailboxPio]: ['S2', () => 'Driver’s mailbox write crosses the bus to the NIC'],
};

export function narrate(idx: TraceIndex, state: DiagramState, t: number, hold: number): Activity[] {
  const tr = idx.trace;
  const out: Activity[] = [];
  for (const rec of recentInstants(idx, K.DriverPostSendBd, t, hold).slice(-1)) {
    out.push({
      key: `s1-${rec}`,
      step: 'S1',
      text: `Driver posts a send descriptor for packet ${tr.a[rec]} in slot ${tr.b[rec]}`,
      purpose: -1,
      kind: 'host',
    });
  }
  for (const b of state.bus) {
    const d = BUS_TEXT[b.purpose];
    if (d)
      out.push({
        key: b.key,
        step: d[0],
        text: d[1](b.bytes, b.packet),
        purpose: b.purpose,
        kind: 'bus',
      });
  }
  for (const f of state.frames) {
    if (f.dir === 'tx')
      out.push({
        key: f.key,
        step: 'S5',
        text: `MAC sends packet ${f.packet}’s frame to the peer (${f.bytes} B)`,
        purpose: -1,
        kind: 'tx',
      });
    else
      out.push({
        key: f.key,
        step: 'R1',
        text: `Frame ${f.packet} arrives from the peer into the NIC receive buffer (${f.bytes} B)`,
        purpose: -1,
        kind: 'rx',
      });
  }
  if (state.interrupt) {
    const c = state.interrupt.causes;
    const why = [c & 1 ? 'sends completed' : '', c & 2 ? 'packets received' : '']
      .filter(Boolean)
      .join(' and ');
    out.push({
      key: `irq-${state.interrupt.rec}`,
      step: c & 2 ? 'R4' : 'S6',
      text: `NIC interrupts the host: ${why || 'work to do'}`,
      purpose: -1,
      kind: 'alert',
    });
  }
  for (const rec of recentInstants(idx, K.HostDeliver, t, hold).slice(-1)) {
    out.push({
      key: `hd-${rec}`,
      step: 'R4',
      text: `Driver hands packet ${tr.a[rec]} (${tr.b[rec]} B) to the protocol stack`,
      purpose: -1,
      kind: 'host',
    });
  }
  if (state.busy.cpuTask === 1) {
    out.push({
      key: 'cpu-isr',
      step: 'CPU',
      text: 'Host CPU runs the interrupt handler: the driver recycles sent descriptors and passes received packets up',
      purpose: -1,
      kind: 'host',
    });
  } else if (state.busy.cpuTask === 0) {
    out.push({
      key: 'cpu-send',
      step: 'CPU',
      text: 'Host CPU builds a UDP packet for the driver to post',
      purpose: -1,
      kind: 'host',
    });
  }
  for (const d of state.drops) {
    out.push({
      key: `drop-${d.rec}`,
      step: 'drop',
      text: `Packet ${d.packet} dropped: ${d.reason === 0 ? 'no receive descriptor' : 'receive buffer full'}`,
      purpose: -1,
      kind: 'alert',
    });
  }
  return out;
}
