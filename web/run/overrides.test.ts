import { describe, expect, it } from 'vitest';
import type { ParameterSpec } from '../engine/types';
import {
  KEY_PARAMETERS,
  buildOverrides,
  choiceFromKey,
  choiceKey,
  flattenParameters,
  groupParameters,
  mapErrors,
  matchesQuery,
  parameterLabel,
  parameterMap,
  parseFieldText,
  sameOverrides,
  sectionOf,
  valueWithUnit,
  withOverride,
} from './overrides';

const spec = (path: string, type: string, extra: Partial<ParameterSpec> = {}): ParameterSpec => ({
  path,
  type,
  ...extra,
});

const SPECS: ParameterSpec[] = [
  spec('system.host.send_cost_ns', 'number', { unit: 'ns', description: 'Host CPU time to send' }),
  spec('system.driver.send_ring_size', 'integer', { unit: 'descriptors', min: 4, max: 65536 }),
  spec('system.bus.width_bits', 'choice', { choices: [32, 64], unit: 'bits' }),
  spec('system.bus.clock_mhz', 'choice', { choices: [33, 66, 100, 133], unit: 'MHz' }),
  spec('system.bus.overhead_cycles', 'integer', { unit: 'cycles' }),
  spec('system.nic.coalesce.send_bds', 'integer', { unit: 'descriptors' }),
  spec('system.nic.delays.bd_ns', 'number', { unit: 'ns' }),
  spec('system.link.rate_mbps', 'choice', { choices: [1000, 10000], unit: 'Mb/s' }),
  spec('workload.direction', 'choice', { choices: ['send', 'receive', 'bidirectional'] }),
  spec('workload.datagram_bytes', 'integer', { unit: 'bytes', min: 18, max: 1472 }),
  spec('run.trace.end_us', 'number', { unit: 'µs' }),
  spec('experimental.knob', 'number'),
];

const BASE = new Map<string, unknown>([
  ['system.bus.clock_mhz', 66],
  ['system.bus.width_bits', 64],
  ['workload.datagram_bytes', 1472],
  ['workload.direction', 'bidirectional'],
  ['run.trace.end_us', 2060],
]);
const SPEC_MAP = new Map(SPECS.map((s) => [s.path, s]));

describe('grouping the parameters', () => {
  it('puts each path in its section', () => {
    expect(sectionOf('system.nic.coalesce.send_bds')).toBe('system.nic');
    expect(sectionOf('system.bus.clock_mhz')).toBe('system.bus');
    expect(sectionOf('workload.datagram_bytes')).toBe('workload');
    expect(sectionOf('run.trace.end_us')).toBe('run');
    expect(sectionOf('system.gpu.cores')).toBe('system.gpu');
  });

  it('lists the most relevant knobs first, then the sections in order, each path once', () => {
    const groups = groupParameters(SPECS);
    expect(groups[0]!.id).toBe('key');
    const key = groups[0]!.specs.map((s) => s.path);
    expect(key).toEqual(KEY_PARAMETERS.filter((p) => SPEC_MAP.has(p)));
    expect(key.slice(0, 2)).toEqual(['system.bus.width_bits', 'system.bus.clock_mhz']);
    expect(groups.map((g) => g.id)).toEqual([
      'key',
      'system.host',
      'system.bus',
      'system.nic',
      'system.link',
      'run',
      'experimental',
    ]);
    const all = groups.flatMap((g) => g.specs.map((s) => s.path));
    expect(new Set(all).size).toBe(SPECS.length);
    expect(all).toHaveLength(SPECS.length);
  });

  it('labels parameters briefly, without the unit suffix', () => {
    expect(parameterLabel('system.bus.clock_mhz')).toBe('Bus clock');
    expect(parameterLabel('system.driver.send_ring_size')).toBe('Send ring size');
    expect(parameterLabel('system.nic.delays.bd_ns')).toBe('Delays · BD');
    expect(parameterLabel('run.trace.end_us')).toBe('Trace · end');
  });

  it('searches path, label, description and unit', () => {
    const s = SPEC_MAP.get('system.host.send_cost_ns')!;
    expect(matchesQuery(s, 'cpu time')).toBe(true);
    expect(matchesQuery(s, 'send_cost')).toBe(true);
    expect(matchesQuery(s, 'send cost')).toBe(true);
    expect(matchesQuery(s, 'ring')).toBe(false);
    expect(matchesQuery(SPEC_MAP.get('system.bus.clock_mhz')!, 'BUS clock')).toBe(true);
    expect(matchesQuery(s, '   ')).toBe(true);
  });
});

describe('reading what the user typed', () => {
  const int = { type: 'integer' };
  it('turns number text into a JSON number and nothing more', () => {
    expect(parseFieldText(int, ' 5000 ')).toEqual({ kind: 'value', value: 5000 });
    expect(parseFieldText({ type: 'number' }, '0.5')).toEqual({ kind: 'value', value: 0.5 });
    expect(parseFieldText({ type: 'number' }, '1e3')).toEqual({ kind: 'value', value: 1000 });
    // Out of range or not whole: still sent; the core says what is allowed.
    expect(parseFieldText(int, '-3')).toEqual({ kind: 'value', value: -3 });
    expect(parseFieldText(int, '100.5')).toEqual({ kind: 'value', value: 100.5 });
  });

  it('sends text that is not a number as typed, for the core to reject with its message', () => {
    expect(parseFieldText(int, 'abc')).toEqual({ kind: 'value', value: 'abc' });
    expect(parseFieldText(int, '1,000')).toEqual({ kind: 'value', value: '1,000' });
  });

  it('shows units with numbers only, booleans as yes/no', () => {
    expect(valueWithUnit(512, 'bytes')).toBe('512 bytes');
    expect(valueWithUnit(65536, 'descriptors')).toBe('65,536 descriptors');
    expect(valueWithUnit('none', 'bytes')).toBe('none');
    expect(valueWithUnit(false, '')).toBe('no');
    expect(valueWithUnit('pci-x', '')).toBe('pci-x');
  });

  it('reads an empty field as "no override"', () => {
    expect(parseFieldText(int, '   ')).toEqual({ kind: 'empty' });
  });

  it('keeps choices in their JSON type', () => {
    expect(choiceFromKey(choiceKey(33))).toBe(33);
    expect(choiceFromKey(choiceKey('send'))).toBe('send');
    expect(choiceFromKey(choiceKey(true))).toBe(true);
    expect(choiceKey(33)).not.toBe(choiceKey('33'));
    // Mixed choices (the core's ["none", 32, 64, …]) keep each value's type.
    expect(['none', 32].map((c) => choiceFromKey(choiceKey(c)))).toEqual(['none', 32]);
  });
});

describe('building the overrides object', () => {
  it('sends numbers as numbers and choices as their JSON type', () => {
    const o = buildOverrides(
      {},
      {
        'workload.datagram_bytes': '5000',
        'system.bus.clock_mhz': 33,
        'workload.direction': 'send',
      },
      SPEC_MAP,
      BASE,
    );
    expect(o).toEqual({
      'workload.datagram_bytes': 5000,
      'system.bus.clock_mhz': 33,
      'workload.direction': 'send',
    });
    expect(JSON.stringify(o)).toBe(
      '{"workload.datagram_bytes":5000,"system.bus.clock_mhz":33,"workload.direction":"send"}',
    );
  });

  it('drops values equal to the scenario’s own, and emptied fields', () => {
    const current = { 'system.bus.clock_mhz': 33, 'workload.datagram_bytes': 64 };
    const o = buildOverrides(
      current,
      { 'system.bus.clock_mhz': 66, 'workload.datagram_bytes': '' },
      SPEC_MAP,
      BASE,
    );
    expect(o).toEqual({});
    expect(buildOverrides({}, { 'workload.datagram_bytes': '1472' }, SPEC_MAP, BASE)).toEqual({});
  });

  it('keeps earlier overrides the user did not touch', () => {
    const o = buildOverrides(
      { 'system.bus.clock_mhz': 33 },
      { 'workload.datagram_bytes': '18' },
      SPEC_MAP,
      BASE,
    );
    expect(o).toEqual({ 'system.bus.clock_mhz': 33, 'workload.datagram_bytes': 18 });
  });

  it('removes one override (a chip) and keeps the rest', () => {
    const o = withOverride(
      { 'system.bus.clock_mhz': 33, 'workload.datagram_bytes': 18 },
      'system.bus.clock_mhz',
      undefined,
      BASE,
    );
    expect(o).toEqual({ 'workload.datagram_bytes': 18 });
  });

  it('reads the run’s nested parameters as dotted paths', () => {
    const tree = { system: { bus: { clock_mhz: 66 } }, run: { trace: { end_us: 2060 } } };
    expect(flattenParameters(tree)).toEqual([
      ['system.bus.clock_mhz', 66],
      ['run.trace.end_us', 2060],
    ]);
    expect(parameterMap(tree).get('run.trace.end_us')).toBe(2060);
    expect(parameterMap(undefined).size).toBe(0);
  });
});

describe('placing the core’s messages', () => {
  it('puts each message next to its field and the rest in the error panel', () => {
    const m = mapErrors(
      [
        {
          path: 'workload.datagram_bytes',
          message: 'is out of range: 5000; allowed 18 to 1472 bytes',
        },
        { path: 'workload.datagram_bytes', message: 'second message' },
        { path: 'nope.x', message: "unknown parameter 'nope.x'" },
        { path: '', message: 'scenario is not valid JSON' },
      ],
      SPEC_MAP.keys(),
    );
    expect(m.byPath.get('workload.datagram_bytes')).toEqual([
      'is out of range: 5000; allowed 18 to 1472 bytes',
      'second message',
    ]);
    expect(m.byPath.has('nope.x')).toBe(false);
    expect(m.other.map((e) => e.path)).toEqual(['nope.x', '']);
  });
});

describe('comparing overrides', () => {
  it('sees the same changes in any order, and tells values apart', () => {
    expect(sameOverrides({ a: 1, b: 'x' }, { b: 'x', a: 1 })).toBe(true);
    expect(sameOverrides({}, {})).toBe(true);
    expect(sameOverrides({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameOverrides({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameOverrides({ a: null }, { b: null })).toBe(false);
  });
});
