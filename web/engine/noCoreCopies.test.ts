// What the views know about the configured system comes from the core's "system" block of the
// run's output: no file of web/ (tests and hand-made fixtures aside) may keep its own copy of
// the Tigon's firmware partition, what its handlers share (Tables 3.2 and 3.3), the PCI retry
// formula, header sizes or clock periods.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'wasm' && name !== 'node_modules') sources(p, out);
    } else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && name !== 'fixture.ts') {
      out.push(p);
    }
  }
  return out;
}

// Telltales of a copy: the names and constants the old copies used.
const TELLTALES: Array<[string, RegExp]> = [
  ['Table 3.4 as a table', /TABLE_3_4\b/],
  ["Table 3.4's CPU A events", /\['Mailbox', 'DmaWriteComplete', 'ReceiveComplete'/],
  [
    "Tables 3.2 and 3.3's shared data",
    /SHARED_DATA\b|the producer index of the driver's send BD ring/,
  ],
  ["Table 3.3's DMA channel users", /READ_CHANNEL\b|WRITE_CHANNEL_ALWAYS\b/],
  ['the retry gap read from the parameters', /'system\.bus\.retry_gap_cycles'/],
  ['the retry formula', /retryGap\s*-\s*1/],
  ['partition parameter names built by hand', /`system\.tigon\.partition\.\$\{/],
  [
    'a header-size constant',
    /\b(ETH_HEADER|ETH_CRC|IP_HEADER|UDP_HEADER|SINIC_TCP_HEADER|MIN_FRAME)\s*=\s*\d/,
  ],
  ['the segment header read from the parameters', /'workload\.segment_header_bytes'/],
  ['a bus clock period guessed', /cyclePs\s*=\s*15000/],
  ['the event bit order written out', /SDR:\s*0,\s*RC:\s*1/],
];

describe('web/ keeps no copy of what the core knows about the configured system', () => {
  const files = sources(WEB);
  it('finds the sources', () => expect(files.length).toBeGreaterThan(50));
  for (const [what, re] of TELLTALES) {
    it(`no ${what}`, () => {
      const hits = files.filter((f) => re.test(readFileSync(f, 'utf8')));
      expect(hits.map((f) => path.relative(WEB, f))).toEqual([]);
    });
  }
});
