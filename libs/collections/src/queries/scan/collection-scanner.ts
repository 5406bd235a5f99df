import { parseFilters } from '@crawlhub/http';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, CollectionRef } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { keyAfter, StoredCollectionRecord } from '../../domain/collection-record';
import { isLive } from '../../domain/collection-rules';
import { KeySegment, planScan, ScanPlan, ScanSelection } from '../../domain/scan-plan';
import { COLLECTIONS_VIEW, CollectionsView } from '../../ports/collections.view';

const PAGE = 5000;

export interface ScanRequest {
  ref: CollectionRef;
  selection: ScanSelection;
  startts?: number;
  endts?: number;
  /** Raw `filter` parameters (record-filter.ts of @crawlhub/storage). */
  filters: string[];
  /** At most this many matches. */
  count?: number;
  /** At most this many records examined; then `nextstart` names the next one, if any. */
  budget?: number;
}

/** What a scan did so far: records examined and matched, and where to go on when the budget stopped it. */
export interface ScanProgress {
  scanned: number;
  matched: number;
  nextstart?: string;
}

/**
 * Reads a collection for scans, counts and deletes by filter: key ranges (or exact keys)
 * in byte order, page by page, keeping the records that are live (cached types expire by
 * the clock), within startts/endts (inclusive, ms on `_ts`) and pass every `filter`.
 */
@Injectable()
export class CollectionScanner {
  constructor(
    @Inject(COLLECTIONS_VIEW) private readonly view: CollectionsView,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Checks the parameters (bad filters throw here, before anything is answered) and returns the pages of matches. */
  scan(req: ScanRequest, progress: ScanProgress = { scanned: 0, matched: 0 }): AsyncGenerator<StoredCollectionRecord[]> {
    const keep = parseFilters(req.filters);
    const now = this.clock.now();
    const expiryMs = this.config.collections.expirySeconds * 1000;
    const { type } = req.ref;
    const { startts, endts } = req;
    const match = (r: StoredCollectionRecord) =>
      isLive(type, r.ts, now, expiryMs) &&
      (startts === undefined || r.ts >= startts) &&
      (endts === undefined || r.ts <= endts) &&
      (keep === null || keep(JSON.parse(r.json) as Record<string, unknown>));
    return this.pages(req, planScan(req.selection), match, progress);
  }

  private async *pages(req: ScanRequest, plan: ScanPlan, match: (r: StoredCollectionRecord) => boolean, out: ScanProgress): AsyncGenerator<StoredCollectionRecord[]> {
    let left = req.count ?? Infinity;
    let budget = req.budget ?? Infinity;
    if ('keys' in plan) {
      for (let i = 0; i < plan.keys.length && left > 0; ) {
        if (budget <= 0) {
          out.nextstart = plan.keys[i];
          return;
        }
        const part = plan.keys.slice(i, i + Math.min(PAGE, budget));
        i += part.length;
        budget -= part.length;
        const found = await this.view.getMany(req.ref, part);
        const matched: StoredCollectionRecord[] = [];
        for (const r of found) {
          out.scanned++;
          if (!match(r)) continue;
          matched.push(r);
          if (--left <= 0) break;
        }
        out.matched += matched.length;
        if (matched.length) yield matched;
      }
      return;
    }
    const segments = plan.segments;
    for (let s = 0; s < segments.length && left > 0; s++) {
      const seg = segments[s];
      let low = seg.low;
      let cap = seg.cap;
      while (cap > 0 && left > 0) {
        if (budget <= 0) {
          out.nextstart = await this.next(req.ref, [{ ...seg, low }, ...segments.slice(s + 1)]);
          return;
        }
        const limit = Math.min(PAGE, budget);
        const page = await this.view.scan(req.ref, { low, high: seg.high, limit });
        const matched: StoredCollectionRecord[] = [];
        let examined = 0;
        for (const r of page) {
          examined++;
          if (!match(r)) continue;
          matched.push(r);
          cap--;
          left--;
          if (cap <= 0 || left <= 0) break;
        }
        out.scanned += examined;
        budget -= examined;
        out.matched += matched.length;
        if (matched.length) yield matched;
        if (page.length < limit && examined === page.length) break;
        low = keyAfter(page[examined - 1].key);
      }
    }
  }

  /** The key of the first record in these segments, if any. */
  private async next(ref: CollectionRef, segments: KeySegment[]): Promise<string | undefined> {
    for (const seg of segments) {
      const [r] = await this.view.scan(ref, { low: seg.low, high: seg.high, limit: 1 });
      if (r) return r.key;
    }
    return undefined;
  }
}
