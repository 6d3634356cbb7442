// Fitted or predicted, and what a check's outcome means, in the words every view uses (checks
// panel, chart marks, A/B table, gallery). The core decides both (core-cpp/scenario/fits.hpp,
// core-cpp/api/api.cpp); this only names them.
import type { Check, ParameterSpec } from '../engine/types';

export type CheckBasis = 'fitted' | 'predicted';
export type CheckOutcome = 'pass' | 'fail' | 'known_miss' | 'unexpected_pass';

/** The core's outcome; from `pass` for a document written before it had one. */
export function checkOutcome(c: Pick<Check, 'pass' | 'outcome'>): CheckOutcome {
  return c.outcome ?? (c.pass ? 'pass' : 'fail');
}

/** True when the check is as the scenario says it should be: it passes, or misses as explained. */
export function outcomeOk(o: CheckOutcome): boolean {
  return o === 'pass' || o === 'known_miss';
}

export const OUTCOME_TEXT: Record<CheckOutcome, string> = {
  pass: 'pass',
  fail: 'fail',
  known_miss: 'misses — explained',
  unexpected_pass: 'passes — its miss note is out of date',
};

export const BASIS_WORDS: Record<CheckBasis, string> = {
  fitted: 'fitted: a parameter was tuned on this value, so agreement shows only that the fit holds',
  predicted: 'predicted: no parameter was tuned on this value',
};

/** Predictions that hold out of all predictions, and how many checks are fitted. */
export function basisCounts(checks: readonly Pick<Check, 'pass' | 'outcome' | 'basis'>[]): {
  predicted: number;
  hold: number;
  fitted: number;
} {
  const predicted = checks.filter((c) => c.basis === 'predicted');
  return {
    predicted: predicted.length,
    hold: predicted.filter((c) => checkOutcome(c) === 'pass').length,
    fitted: checks.filter((c) => c.basis === 'fitted').length,
  };
}

/**
 * A scenario's reference before any run (the A/B sides run without references): fitted when a
 * parameter's fitted_to names "<scenario id>#<reference id>", as the core derives a check's basis.
 */
export function referenceBasis(
  scenarioId: string,
  referenceId: string,
  specs: readonly Pick<ParameterSpec, 'fitted_to'>[],
): CheckBasis {
  const id = `${scenarioId}#${referenceId}`;
  return specs.some((s) => s.fitted_to?.includes(id)) ? 'fitted' : 'predicted';
}
