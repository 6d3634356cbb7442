// "What is happening now": a plain-language line per activity at the cursor, tagged with the
// send (S1–S6) and receive (R1–R4) steps of the thesis (§1.3, §1.4). Pure, like every view model.
import { K, MAILBOX_NAMES, P } from '../trace/traceKinds';
import { mailboxStep } from '../trace/steps';
import { DriverPostSendBd, HostDeliver } from '../trace/records.gen';
import type { DiagramState } from './diagramState';
import { recentInstants, type TraceIndex } from '../trace/traceIndex';

export interface Activity {
  key: string;
  step: string;
  text: string;
  /** Purpose id for the colour, or -1 for frames/alerts (see kind). */
  purpose: number;
  kind: 'bus' | 'tx' | 'rx' | 'host' | 'alert';
}

type BusText = (bytes: number, packet: number, nic: string) => string;

const BUS_TEXT: Record<number, [string, BusText]> = {
  [P.SendBdFetch]: ['S3', (b, _p, n) => `${n} fetches send descriptors by DMA read (${b} B)`],
  [P.SendDataFetch]: [
    'S4',
    (b, p, n) => `${n} DMA-reads packet ${p}’s data into its transmit buffer (${b} B)`,
  ],
  [P.RecvBdFetch]: ['pre', (b, _p, n) => `${n} fetches empty receive-buffer descriptors (${b} B)`],
  [P.RecvDataWrite]: [
    'R2',
    (b, p, n) => `${n} DMA-writes packet ${p} into a host receive buffer (${b} B)`,
  ],
  [P.ReturnBdWrite]: [
    'R3',
    (_b, p, n) => `${n} writes the return descriptor of packet ${p} to host memory`,
  ],
  [P.SendConsumerWrite]: [
    'S6',
    (_b, _p, n) => `${n} tells the driver which sends are done (send consumer index)`,
  ],
  [P.ReturnProducerWrite]: [
    'R4',
    (_b, _p, n) => `${n} publishes the return ring’s producer index to host memory`,
  ],
  [P.MailboxPio]: ['PIO', () => 'Driver’s mailbox write crosses the bus to the NIC'],
  [P.RegisterRead]: [
    'S6',
    (_b, _p, n) => `Driver reads ${n}’s send consumer index by PIO; the CPU waits for the answer`,
  ],
  [P.DiskTransfer]: [
    'disk',
    (b) => `The disk controller DMA-writes a block into main memory (${b} B): other traffic`,
  ],
};

/** "NIC" with one NIC, "NIC 2" for the second of two. */
export function nicName(nic: number, nicCount: number): string {
  return nicCount > 1 || nic > 0 ? `NIC ${nic + 1}` : 'NIC';
}

export function narrate(idx: TraceIndex, state: DiagramState, t: number, hold: number): Activity[] {
  const tr = idx.trace;
  const out: Activity[] = [];
  const count = Math.max(idx.nicCount ?? 1, state.nics?.length ?? 1);
  const name = (nic: number) => nicName(nic, count);
  const many = count > 1;
  for (const rec of recentInstants(idx, K.DriverPostSendBd, t, hold).slice(-1)) {
    out.push({
      key: `s1-${rec}`,
      step: 'S1',
      text: `Driver posts a send descriptor for packet ${DriverPostSendBd.packet(tr, rec)} in slot ${DriverPostSendBd.slot(tr, rec)}`,
      purpose: -1,
      kind: 'host',
    });
  }
  for (const b of state.bus) {
    const d = BUS_TEXT[b.purpose];
    // A mailbox write is S2 only for the send producer: its step comes from its MailboxWrite.
    const box = b.purpose === P.MailboxPio ? b.mailbox : null;
    if (d)
      out.push({
        key: b.key,
        step: (box !== null ? mailboxStep(box) : undefined) ?? d[0],
        text:
          box !== null
            ? `Driver’s mailbox write (${MAILBOX_NAMES[box] ?? box}) crosses the bus to the NIC`
            : d[1](b.bytes, b.packet, name(b.nic)),
        purpose: b.purpose,
        kind: 'bus',
      });
  }
  for (const f of state.frames) {
    if (f.dir === 'tx')
      out.push({
        key: f.key,
        step: 'S5',
        text: `${many ? `${name(f.nic)}’s ` : ''}MAC sends packet ${f.packet}’s frame to the peer (${f.bytes} B)`,
        purpose: -1,
        kind: 'tx',
      });
    else
      out.push({
        key: f.key,
        step: 'R1',
        text: `Frame ${f.packet} arrives from the peer into ${many ? `${name(f.nic)}’s` : 'the NIC'} receive buffer (${f.bytes} B)`,
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
      text: `${name(state.interrupt.nic ?? 0)} interrupts the host: ${why || 'work to do'}`,
      purpose: -1,
      kind: 'alert',
    });
  }
  for (const rec of recentInstants(idx, K.HostDeliver, t, hold).slice(-1)) {
    out.push({
      key: `hd-${rec}`,
      step: 'R4',
      text: `Driver hands packet ${HostDeliver.packet(tr, rec)} (${HostDeliver.payloadBytes(tr, rec)} B) to the protocol stack`,
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
      text: `Packet ${d.packet} dropped${many ? ` at ${name(d.nic ?? 0)}` : ''}: ${d.reason === 0 ? 'no receive descriptor' : 'receive buffer full'}`,
      purpose: -1,
      kind: 'alert',
    });
  }
  return out;
}
