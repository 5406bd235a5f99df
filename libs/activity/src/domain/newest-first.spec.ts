import { mergeNewestFirst } from './newest-first';

async function* from(xs: number[]) {
  yield* xs;
}

describe('mergeNewestFirst', () => {
  it('merges descending streams into one descending stream', async () => {
    const sources = [[9, 5, 1], [], [8, 7, 6, 2], [10], [4, 3, 0]].map((xs) => from(xs));
    const out: number[] = [];
    for await (const x of mergeNewestFirst(sources, (a, b) => a > b)) out.push(x);
    expect(out).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('yields nothing without sources', async () => {
    const out: number[] = [];
    for await (const x of mergeNewestFirst<number>([], (a, b) => a > b)) out.push(x);
    expect(out).toEqual([]);
  });
});
