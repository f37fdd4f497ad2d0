import {overBudget} from '../../scripts/budget';

describe('size budget check', () => {
  const budget = {'firstLoadJsGzip.home': 100_000, searchOneQueryBytes: 300_000};

  it('passes within 10 % of the budget', () => {
    expect(overBudget({'firstLoadJsGzip.home': 110_000, searchOneQueryBytes: 250_000}, budget)).toEqual([]);
  });

  it('fails a measure more than 10 % over, naming it', () => {
    expect(overBudget({'firstLoadJsGzip.home': 110_001, searchOneQueryBytes: 300_000}, budget)).toEqual([
      {measure: 'firstLoadJsGzip.home', actual: 110_001, budget: 100_000},
    ]);
  });

  it('fails a measure that has no recorded budget', () => {
    expect(overBudget({'firstLoadJsGzip.newPage': 1}, budget)).toEqual([
      {measure: 'firstLoadJsGzip.newPage', actual: 1, budget: undefined},
    ]);
  });
});
