import { ManualClock, SequentialIds } from './clock';
import { createEvent, decodeEvent, encodeEvent } from './envelope';

describe('encodeEvent', () => {
  const lines = ['{"a":1.0}', '{"s":"é😀 \\" x"}', '[1,2]'];
  const event = createEvent({ type: 't', key: 'k', data: { n: 1 }, lines, actor: { kind: 'system', id: 'test' } }, { clock: new ManualClock(5), ids: new SequentialIds() });

  it('writes the posted bytes of the lines as they are, the same wire form as encoding the texts', () => {
    const pieces = lines.flatMap((l, i) => (i === 0 ? [Buffer.from(l)] : [Buffer.from('\n'), Buffer.from(l)]));
    const fromBytes = encodeEvent({ ...event, linesUtf8: pieces });
    expect(fromBytes.equals(encodeEvent(event))).toBe(true);
    // The bytes never travel in the header: the decoded event has the texts only.
    const decoded = decodeEvent(fromBytes);
    expect(decoded.lines).toEqual(lines);
    expect(decoded).not.toHaveProperty('linesUtf8');
    expect(decoded).toEqual(event);
  });
});
