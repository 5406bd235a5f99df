import { createEvent, EventEnvelope, ManualClock, SequentialIds } from '@crawlhub/contracts';
import { EventWriter } from './event-writer';
import { appendStaged, StagedAppendEvents } from './staged-append';

/** Records what is appended; `failAt` makes the source throw after that many chunks. */
function setup() {
  const appended: EventEnvelope[] = [];
  const writer = {
    ids: new SequentialIds(),
    append: async (topic: string, events: EventEnvelope[]) => {
      appended.push(...events);
      return events.map((_, i) => ({ topic, partition: 0, offset: appended.length - events.length + i }));
    },
  } as unknown as EventWriter;
  const stamps = { clock: new ManualClock(0), ids: new SequentialIds() };
  const ev = (type: string, data: unknown) => createEvent({ type, key: 'k', data, actor: { kind: 'system', id: 't' } }, stamps);
  const events: StagedAppendEvents<string> = {
    single: (c) => ev('single', c),
    staged: (c, upload, seq) => ev('staged', { c, upload, seq }),
    commit: (upload, chunks) => ev('commit', { upload, chunks }),
    abort: (upload) => ev('abort', { upload }),
  };
  return { appended, writer, events };
}

async function* source(chunks: string[], failAfter = Infinity) {
  let n = 0;
  for (const c of chunks) {
    if (n++ === failAfter) throw new Error('bad line');
    yield c;
  }
  if (failAfter === chunks.length) throw new Error('bad line');
}

describe('appendStaged', () => {
  it('writes a body of one chunk as one event, and nothing for an empty body', async () => {
    const s = setup();
    expect(await appendStaged(s.writer, 't', source(['a']), s.events)).toEqual([{ topic: 't', partition: 0, offset: 0 }]);
    expect(s.appended.map((e) => [e.type, e.data])).toEqual([['single', 'a']]);
    expect(await appendStaged(s.writer, 't', source([]), s.events)).toEqual([]);
    expect(s.appended).toHaveLength(1);
  });

  it('stages a longer body and commits it; the answer waits for the commit only', async () => {
    const s = setup();
    const positions = await appendStaged(s.writer, 't', source(['a', 'b', 'c']), s.events);
    expect(s.appended.map((e) => e.type)).toEqual(['staged', 'staged', 'staged', 'commit']);
    const upload = (s.appended[0].data as { upload: string }).upload;
    expect(s.appended.slice(0, 3).map((e) => e.data)).toEqual(['a', 'b', 'c'].map((c, seq) => ({ c, upload, seq })));
    expect(s.appended[3].data).toEqual({ upload, chunks: 3 });
    expect(positions).toEqual([{ topic: 't', partition: 0, offset: 3 }]);
  });

  it('aborts what was staged when the body fails half-way, and rethrows', async () => {
    const s = setup();
    await expect(appendStaged(s.writer, 't', source(['a', 'b', 'c'], 2), s.events)).rejects.toThrow('bad line');
    expect(s.appended.map((e) => e.type)).toEqual(['staged', 'abort']);
    const t = setup();
    await expect(appendStaged(t.writer, 't', source(['a'], 1), t.events)).rejects.toThrow('bad line');
    expect(t.appended).toEqual([]);
  });
});
