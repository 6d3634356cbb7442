import { describe, expect, it } from 'vitest';
import {
  BUS_CATEGORY_NAMES,
  BUS_PHASE_NAMES,
  COMPONENT_NAMES,
  KIND_NAMES,
  PURPOSE_NAMES,
  TRACE_KINDS,
  describeFields,
  componentLabel,
  BC,
  BP,
  C,
  K,
  P,
} from './traceKinds';
import { KINDS, TABLES } from './records.gen';

describe('traceKinds.ts follows the generated definition (web/trace/records.gen.ts)', () => {
  it('has its kinds in its order', () => {
    expect(KIND_NAMES).toEqual(KINDS.map((k) => k.name));
    expect(TRACE_KINDS.length).toBe(KINDS.length);
  });

  it('has its components, bus phases, cycle categories and purposes in their order', () => {
    expect(COMPONENT_NAMES).toEqual(TABLES.component.names);
    expect(BUS_PHASE_NAMES).toEqual(TABLES.busPhase.names);
    expect(BUS_CATEGORY_NAMES).toEqual(TABLES.busCategory.names);
    expect(PURPOSE_NAMES).toEqual(TABLES.purpose.names);
  });

  it("keeps its short ids (C, P, BP, BC) at the tables' positions", () => {
    for (const [name, v] of Object.entries(C)) expect(TABLES.component.ids[v]).toBe(name);
    for (const [name, v] of Object.entries(P)) expect(TABLES.purpose.ids[v]).toBe(name);
    for (const [name, v] of Object.entries(BP)) expect(TABLES.busPhase.ids[v]).toBe(name);
    for (const [name, v] of Object.entries(BC))
      expect(TABLES.busCategory.ids[v]!.replace(/Cycles$/, '')).toBe(name);
  });

  it('documents every column a field of the definition takes', () => {
    for (const k of KINDS) {
      for (const f of k.fields) {
        for (let w = 0; w < f.words; w++)
          expect(TRACE_KINDS[k.id]!.fields[f.column + w], `${k.name}.${f.name}`).toBeDefined();
      }
    }
  });
});

describe('describeFields', () => {
  it('names and renders the fields of an IndexUpdate', () => {
    expect(describeFields(K.IndexUpdate, [2, 1, 5, 3, 512])).toEqual([
      ['ring', 'return ring'],
      ['copy', 'NIC'],
      ['producer', '5'],
      ['consumer', '3'],
      ['size', '512'],
    ]);
  });
  it('renders purposes and masters of a bus transaction', () => {
    const f = describeFields(K.BusTxnStart, [7, 4, 64, 1, 9]);
    expect(f).toContainEqual(['master', 'DMA read']);
    expect(f).toContainEqual(['purpose', 'send data fetch']);
    expect(f).toContainEqual(['bytes', '64 B']);
  });
  it('joins the 64-bit CPU busy duration', () => {
    expect(describeFields(K.HostCpuBusy, [1, 5, 1, 0, 0])).toEqual([
      ['task', 'interrupt service'],
      ['duration', `${2 ** 32 + 5} ps`],
    ]);
  });
  it('names the second NIC’s components and the split completer', () => {
    expect(componentLabel(C.DmaRead)).toBe('DMA read');
    expect(componentLabel(C.DmaRead | (1 << 8))).toBe('NIC 2 DMA read');
    expect(componentLabel(C.Nic | (1 << 8))).toBe('NIC 2');
    expect(componentLabel(C.Peer | (1 << 8))).toBe('peer 2');
    expect(componentLabel(C.HostBridge | (1 << 8))).toBe('host bridge (split completions)');
    expect(describeFields(K.BusTxnStart, [7, C.DmaWrite | (1 << 8), 64, 3, 9])).toContainEqual([
      'master',
      'NIC 2 DMA write',
    ]);
  });
  it('reads BusRequest with the master in the component and the packet in a', () => {
    expect(describeFields(K.BusRequest, [5, 0, 0, 0, 0], C.Nic | (1 << 8))).toEqual([
      ['packet', '5'],
    ]);
    expect(describeFields(K.BusRequest, [C.Nic, 4, 0, 0, 0], C.Bus)[0]).toEqual(['master', 'NIC']);
  });
});
