// The wasm build survives the deep inputs that overflowed the native stack (its own stack is far
// smaller): a 300,000-deep array in each field that used to be copied or dumped recursively, in
// an override and as the whole document is refused with the field and the limit named, by
// validate and by run. Requires the wasm build (bash core-cpp/scripts/build-wasm.sh).
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from './nodeCore';

const DEPTH = 300_000;
const deep = '['.repeat(DEPTH) + ']'.repeat(DEPTH);

const reference = {
  id: 'r',
  source: 's',
  description: 'd',
  metric: 'udp_tx_throughput',
  expected: 1,
  comparison: 'within',
  tolerance: 0.1,
  kind: 'exact',
};
const sweep = { parameter: 'workload.datagram_bytes', values: [18, 1472] };

/** A minimal scenario with `extra` merged in and the string "@@" replaced by the deep array. */
function scenario(extra: Record<string, unknown>): string {
  const doc = { format: 1, id: 'deep', title: 't', summary: 's', ...extra };
  return JSON.stringify(doc).replace('"@@"', deep);
}

const cases: { name: string; scenario: string; overrides: string; path: string }[] = [
  {
    name: 'reference[].at',
    scenario: scenario({ sweep, reference: [{ ...reference, at: '@@' }] }),
    overrides: '',
    path: 'reference[0].at',
  },
  {
    name: 'reference[].relative_to.at',
    scenario: scenario({ sweep, reference: [{ ...reference, relative_to: { at: '@@' } }] }),
    overrides: '',
    path: 'reference[0].relative_to.at',
  },
  {
    name: 'compare.metrics',
    scenario: scenario({
      compare: { a: { label: 'a', set: {} }, b: { label: 'b', set: {} }, metrics: '@@' },
    }),
    overrides: '',
    path: 'compare.metrics',
  },
  {
    name: 'sweep.values of an unknown parameter',
    scenario: scenario({ sweep: { parameter: 'no.such.parameter', values: ['@@'] } }),
    overrides: '',
    path: 'sweep.values',
  },
  {
    name: 'an override',
    scenario: scenario({}),
    overrides: `{"workload.datagram_bytes": ${deep}}`,
    path: 'workload.datagram_bytes',
  },
  { name: 'the whole document', scenario: deep, overrides: '', path: '' },
];

describe('the wasm core refuses deep JSON', async () => {
  const core = await loadNodeCore();

  for (const c of cases) {
    it(`${c.name}: validate and run name the field and the limit`, () => {
      const errors = JSON.parse(core.validate(c.scenario, c.overrides)) as {
        path: string;
        message: string;
      }[];
      expect(errors).toContainEqual({
        path: c.path,
        message: expect.stringContaining('deeper than 64 levels') as string,
      });
      const out = JSON.parse(core.run(c.scenario, c.overrides)) as {
        errors?: { path: string; message: string }[];
      };
      expect(out.errors?.map((e) => e.path)).toContain(c.path);
    });
  }

  it('still runs a scenario afterwards', () => {
    const out = JSON.parse(core.run(scenario({ run: { duration_us: 50, warmup_us: 10 } }), '')) as {
      results?: Record<string, unknown>;
    };
    expect(out.results).toBeDefined();
  });
});
