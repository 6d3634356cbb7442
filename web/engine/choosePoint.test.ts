// Which sweep point an idle instance of the pool takes: the points that share what the core
// builds first (a web run's generated trace) stay with the instance that has it.
import { describe, expect, it } from 'vitest';
import { choosePoint } from './pool';

// web-cpu-bound-traces' layout: 4 NIC cache sizes within each of 3 traces.
const setups = ['ibm', 'ibm', 'ibm', 'ibm', 'wc', 'wc', 'wc', 'wc', 'bk', 'bk', 'bk', 'bk'];
const all = (from: number, to: number) => [...Array(to - from).keys()].map((i) => i + from);

describe('choosePoint', () => {
  it('without setups takes the first open point, as in index order', () => {
    expect(choosePoint([3, 5, 8], undefined, [], [])).toBe(3);
    expect(choosePoint([], undefined, [], [])).toBeUndefined();
  });

  it('takes a point whose setup the instance keeps, before any other', () => {
    expect(choosePoint(all(1, 12), setups, ['wc'], ['ibm'])).toBe(4);
    expect(choosePoint([2, 9, 10], setups, ['bk'], ['ibm'])).toBe(9);
  });

  it("starts a setup no instance has rather than build another's again", () => {
    // The main run (ibm) ran on the other instance: this one starts on World Cup.
    expect(choosePoint(all(1, 12), setups, [], ['ibm'])).toBe(4);
    // Both others taken: Berkeley.
    expect(choosePoint(all(1, 12), setups, [], ['ibm', 'wc'])).toBe(8);
  });

  it('takes a point that needs no setup before starting one', () => {
    const mixed = ['a', '', 'b'];
    expect(choosePoint([0, 1, 2], mixed, [], [])).toBe(1);
    expect(choosePoint([0, 1, 2], ['', '', ''], ['x'], ['y'])).toBe(0);
  });

  it('helps a busy instance with its largest setup from the end, rather than idle', () => {
    // Its own done, every setup held by a busy instance: the last of the setup with most open.
    expect(choosePoint([2, 3, 9, 10, 11], setups, ['wc'], ['ibm', 'bk'])).toBe(11);
    // One point left of a long run's setup (web-sendfile-vs-write's tail): taken, not waited for.
    expect(choosePoint([7], ['a', 'b', 'c', 'd', 'a', 'b', 'c', 'd'], ['a'], ['d'])).toBe(7);
  });

  it('leaves an idle holder its own points', () => {
    expect(choosePoint([3, 11], setups, ['wc'], ['ibm', 'bk'], ['bk'])).toBe(3);
    expect(choosePoint([11], setups, ['wc'], ['ibm', 'bk'], ['bk'])).toBeUndefined();
  });

  it('hands out every point of a sweep, each once, over two instances', () => {
    // Two instances take turns; the first holds the main run's trace. Every point is handed
    // out once, and each instance builds few traces.
    const held: string[][] = [['ibm'], []];
    const open = all(1, 12);
    const got: number[][] = [[], []];
    let turn = 0;
    while (open.length > 0) {
      const me = turn++ % 2;
      const i = choosePoint(open, setups, held[me]!, held[1 - me]!);
      if (i === undefined) continue;
      open.splice(open.indexOf(i), 1);
      got[me]!.push(i);
      if (!held[me]!.includes(setups[i]!)) held[me]!.push(setups[i]!);
    }
    expect([...got[0]!, ...got[1]!].sort((a, b) => a - b)).toEqual(all(1, 12));
    expect(held[0]!.length + held[1]!.length).toBeLessThanOrEqual(4); // 3 traces, one built twice
  });
});
