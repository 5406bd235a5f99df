import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FRONTIER_VIEW, FrontierView, StoredFingerprint } from '../../ports/frontier.view';
import { ReadFingerprintsQuery } from './read-fingerprints.query';

const PAGE = 5000;

@QueryHandler(ReadFingerprintsQuery)
export class ReadFingerprintsHandler implements IQueryHandler<ReadFingerprintsQuery, AsyncIterable<string[]>> {
  constructor(@Inject(FRONTIER_VIEW) private readonly view: FrontierView) {}

  async execute(q: ReadFingerprintsQuery): Promise<AsyncIterable<string[]>> {
    return readFingerprints(this.view, q);
  }
}

/** `{"fp":…}`, plus `"fdata"` when one was stored with the fingerprint. */
export function fingerprintLine(f: StoredFingerprint): string {
  return f.fdata === null ? `{"fp":${JSON.stringify(f.fp)}}` : `{"fp":${JSON.stringify(f.fp)},"fdata":${f.fdata}}`;
}

async function* readFingerprints(view: FrontierView, q: ReadFingerprintsQuery): AsyncGenerator<string[]> {
  let left = q.count ?? Infinity;
  let range = q.range;
  while (left > 0) {
    const limit = Math.min(PAGE, left);
    const page = await view.fingerprints(q.slot, range, limit);
    if (page.length) yield page.map(fingerprintLine);
    left -= page.length;
    if (page.length < limit) return;
    range = { after: page[page.length - 1].fp };
  }
}
