import { describe, expect, it } from 'vitest';
import { basisCounts, checkOutcome, outcomeOk, referenceBasis } from './checkBasis';

describe('fitted or predicted', () => {
  it('counts the predictions that hold, apart from the fitted checks', () => {
    const checks = [
      { pass: true, basis: 'predicted' as const, outcome: 'pass' as const },
      { pass: false, basis: 'predicted' as const, outcome: 'fail' as const },
      { pass: false, basis: 'predicted' as const, outcome: 'known_miss' as const },
      { pass: true, basis: 'fitted' as const, outcome: 'pass' as const },
    ];
    expect(basisCounts(checks)).toEqual({ predicted: 3, hold: 1, fitted: 1 });
  });

  it('an explained miss is as the scenario says; an unexpected pass is not', () => {
    expect(outcomeOk(checkOutcome({ pass: false, outcome: 'known_miss' }))).toBe(true);
    expect(outcomeOk(checkOutcome({ pass: true, outcome: 'unexpected_pass' }))).toBe(false);
    expect(checkOutcome({ pass: true })).toBe('pass');
  });

  it("reads a reference's basis from the parameters' fitted_to", () => {
    const specs = [{ fitted_to: ['tigon-vs-asic#tigon-1472'] }, {}];
    expect(referenceBasis('tigon-vs-asic', 'tigon-1472', specs)).toBe('fitted');
    expect(referenceBasis('tigon-vs-asic', 'asic-1472', specs)).toBe('predicted');
  });
});
