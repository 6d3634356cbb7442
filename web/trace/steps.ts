// The thesis step a record is (send S1–S6 §1.3, receive R1–R4 and buffer pre-allocation §1.4),
// read from the record itself: its kind's step in the trace contract, or, where one kind serves
// several steps, its typed fields (a mailbox write's mailbox, an interrupt's causes). Never from
// the preset's direction or the records around it.
import { TABLES } from './records.gen';
import { InterruptRaise, MailboxArrive, MailboxWrite } from './records.gen';
import { K, TRACE_KINDS } from './traceKinds';
import type { Trace } from './trace';

/** The step of a write to each mailbox (the mailbox table's third column). */
export const MAILBOX_STEPS: readonly string[] = TABLES.mailbox.extra ?? [];

const idIndex = new WeakMap<Trace, Map<number, number>>();

/** The index of the record with this id, or -1 when it lies outside the trace window. */
export function indexOfId(trace: Trace, id: number): number {
  let m = idIndex.get(trace);
  if (!m) {
    m = new Map();
    for (let i = 0; i < trace.length; i++) m.set(trace.id[i]!, i);
    idIndex.set(trace, m);
  }
  return id > 0 ? (m.get(id) ?? -1) : -1;
}

/**
 * The mailbox a record writes: its own field for MailboxWrite/MailboxArrive; for the bus tenure
 * that carries the write (BusGrant → BusTxnStart → …), the MailboxWrite its causes lead back
 * to. Null when not a mailbox write or when the write lies outside the window.
 */
export function mailboxOf(trace: Trace, i: number): number | null {
  for (let hops = 0, r = i; hops < 8 && r >= 0; hops++) {
    const k = trace.kind[r]!;
    if (k === K.MailboxWrite) return MailboxWrite.mailbox(trace, r);
    if (k === K.MailboxArrive) return MailboxArrive.mailbox(trace, r);
    if (k !== K.BusTxnStart && k !== K.BusTxnEnd && k !== K.BusGrant && k !== K.BusPhase)
      return null;
    r = indexOfId(trace, trace.cause[r]!);
  }
  return null;
}

/** The step of a write to a mailbox, or undefined for an unknown one. */
export function mailboxStep(mailbox: number | null): string | undefined {
  return mailbox === null ? undefined : MAILBOX_STEPS[mailbox] || undefined;
}

/** The thesis step record i is, or undefined when it is none (or not known). */
export function recordStep(trace: Trace, i: number): string | undefined {
  const k = trace.kind[i]!;
  if (k === K.MailboxWrite || k === K.MailboxArrive) return mailboxStep(mailboxOf(trace, i));
  if (k === K.InterruptRaise) {
    const c = InterruptRaise.causes(trace, i);
    return c === 1 ? 'S6' : c === 2 ? 'R4' : 'S6/R4';
  }
  return TRACE_KINDS[k]?.step;
}
