import { fitBodyChoice } from '../../bench/extraction/body-fit';
import { predictProbability } from '../../libs/extraction/src/model/logistic';

// Pages where a wider candidate (wider = 1) is the body and the rules' choice (rule = 1) misses half of it;
// every margin below the model's probability gap then gives the same training F1.
const page = (ruleF1: number, widerF1: number) => ({
  guarded: false,
  candidates: [
    { features: { rule: 1, wider: 0 }, f1: ruleF1 },
    { features: { rule: 0, wider: 1 }, f1: widerF1 },
  ],
});

describe('fitBodyChoice: the margin', () => {
  it('takes the widest margin that keeps the best training F1, so the held-out pages flip only on a real gain', () => {
    const pages = [...Array.from({ length: 30 }, () => page(0.5, 1)), ...Array.from({ length: 10 }, () => page(1, 0.9))];
    const { model, margin } = fitBodyChoice(pages);
    const gap = predictProbability(model, { rule: 0, wider: 1 }) - predictProbability(model, { rule: 1, wider: 0 });
    // the wider candidate is still chosen where it is the body ...
    expect(gap).toBeGreaterThan(margin);
    // ... by the widest step of the grid (0.025) below the gap, not the first margin that reaches the best F1
    expect(margin).toBeGreaterThan(gap - 0.025 - 1e-9);
  });
});
