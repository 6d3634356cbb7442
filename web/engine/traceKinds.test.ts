import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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
  C,
  K,
} from './traceKinds';

const hpp = readFileSync(
  fileURLToPath(new URL('../../core-cpp/trace/trace_kinds.hpp', import.meta.url)),
  'utf8',
);

function listBody(macro: string): string {
  const start = hpp.indexOf(`#define ${macro}(X)`);
  expect(start).toBeGreaterThanOrEqual(0);
  const rest = hpp.slice(start);
  // The list ends at the first line that does not continue with a backslash.
  const lines = rest.split('\n');
  const body: string[] = [];
  for (const l of lines) {
    body.push(l);
    if (!l.trimEnd().endsWith('\\')) break;
  }
  return body.join('\n');
}

describe('traceKinds.ts mirrors core-cpp/trace/trace_kinds.hpp', () => {
  it('has the same kinds in the same order', () => {
    const names = [...listBody('NICSIM_TRACE_KINDS').matchAll(/X\((\w+),/g)].map((m) => m[1]);
    expect(KIND_NAMES).toEqual(names);
  });

  it('has the same components in the same order', () => {
    const names = [...listBody('NICSIM_COMPONENTS').matchAll(/X\(\w+, "([^"]+)"\)/g)].map(
      (m) => m[1],
    );
    expect(COMPONENT_NAMES).toEqual(names);
  });

  it('has the same bus phases and cycle categories in the same order', () => {
    const phases = [...listBody('NICSIM_BUS_PHASES').matchAll(/X\(\w+, "([^"]+)"\)/g)].map(
      (m) => m[1],
    );
    expect(BUS_PHASE_NAMES).toEqual(phases);
    const categories = [...listBody('NICSIM_BUS_CATEGORIES').matchAll(/X\(\w+, "([^"]+)"\)/g)].map(
      (m) => m[1],
    );
    expect(BUS_CATEGORY_NAMES).toEqual(categories);
  });

  it('has the same purposes in the same order', () => {
    const names = [...listBody('NICSIM_PURPOSES').matchAll(/X\(\w+, "([^"]+)"\)/g)].map(
      (m) => m[1],
    );
    expect(PURPOSE_NAMES).toEqual(names);
  });

  it('documents a field for every field the C++ doc string names', () => {
    const docs = [...listBody('NICSIM_TRACE_KINDS').matchAll(/X\((\w+), "([^"]*)"\)/g)];
    for (const [, name, doc] of docs) {
      const kind = TRACE_KINDS[KIND_NAMES.indexOf(name!)]!;
      for (const [i, letter] of ['a', 'b', 'c', 'd', 'e'].entries()) {
        if (new RegExp(`\\b${letter}=`).test(doc!))
          expect(kind.fields[i], `${name}.${letter}`).toBeDefined();
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
