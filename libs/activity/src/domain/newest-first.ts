/**
 * Merges streams that are each sorted newest first into one stream newest first: a
 * binary heap of the streams' heads. `newer(a, b)` is true when `a` comes before `b`.
 */
export async function* mergeNewestFirst<T>(sources: AsyncIterator<T>[], newer: (a: T, b: T) => boolean): AsyncGenerator<T> {
  const heap: { head: T; source: AsyncIterator<T> }[] = [];
  const before = (i: number, j: number) => newer(heap[i].head, heap[j].head);
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j], heap[i]]);
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(i, parent)) return;
      swap(i, parent);
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && before(l, top)) top = l;
      if (r < heap.length && before(r, top)) top = r;
      if (top === i) return;
      swap(i, top);
      i = top;
    }
  };
  for (const source of sources) {
    const next = await source.next();
    if (!next.done) {
      heap.push({ head: next.value, source });
      up(heap.length - 1);
    }
  }
  while (heap.length > 0) {
    const top = heap[0];
    yield top.head;
    const next = await top.source.next();
    if (next.done) {
      const last = heap.pop()!;
      if (heap.length === 0) return;
      heap[0] = last;
    } else {
      top.head = next.value;
    }
    down(0);
  }
}
