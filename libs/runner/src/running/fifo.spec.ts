import { LineSplitter } from './fifo';

describe('LineSplitter', () => {
  it('splits chunks into lines across chunk boundaries, and ends with the last unterminated line', () => {
    const lines: string[] = [];
    const s = new LineSplitter(100, (l) => lines.push(l), () => undefined);
    s.push(Buffer.from('ab'));
    s.push(Buffer.from('c\nde\n\nf'));
    s.push(Buffer.from('é'.slice(0, 1)));
    s.end();
    expect(lines).toEqual(['abc', 'de', '', 'fé']);
  });

  it('skips a line longer than the limit without buffering it, and reports its size', () => {
    const lines: string[] = [];
    const overlong: number[] = [];
    const s = new LineSplitter(5, (l) => lines.push(l), (n) => overlong.push(n));
    s.push(Buffer.from('ok\n0123456'));
    s.push(Buffer.from('789\nnext\n'));
    s.push(Buffer.from('tail-too-long'));
    s.end();
    expect(lines).toEqual(['ok', 'next']);
    expect(overlong).toEqual([10, 13]);
  });
});
