import { Inject, Injectable } from '@nestjs/common';
import { AnyBulkWriteOperation, Collection } from 'mongodb';
import type { UsageBucketPartial, UsageHistogram } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoViewDatabase } from '@crawlhub/views';
import type { UsageBucketRow } from '../../domain/usage-rollup';
import { ProxyUsageView, UsageScan } from '../../ports/proxy-usage.view';

/**
 * One document per (bucket, user); `_id` is the start as 14 digits, `/`, the user, so it
 * sorts in read order and a page is one `_id` range. Counts, request-time bins
 * (`t.b<bin>`) and per-second concurrency (`k.s<second>`) are added with `$inc`,
 * guarded by `_o`: the update matches only a document last changed by an older event,
 * and when a newer or the same event already changed it the upsert meets the existing
 * `_id` (duplicate key) and is dropped. A user's events come in order from one
 * partition, so offsets compare.
 */
interface UsageDoc {
  _id: string;
  s: number;
  u: string;
  c: number;
  f: number;
  b: number;
  tr: number;
  /** Request-time histogram: `b<bin>` -> count. */
  t: Record<string, number>;
  /** Concurrency: `s<second of the bucket>` -> requests in flight (summed over processes). */
  k: Record<string, number>;
  _o: number;
}

const idOf = (start: number, user: string) => `${String(start).padStart(14, '0')}/${user}`;
const startKey = (start: number) => String(start).padStart(14, '0');

@Injectable()
export class ProxyUsageMongo implements ProxyUsageView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) private readonly views: MongoViewDatabase) {
    this.ready = views.defineIndexes(async (db) => {
      await db.collection<UsageDoc>('proxy_usage').createIndex({ u: 1, _id: 1 }, { name: 'proxy_usage_user' });
    });
    this.ready.catch(() => undefined);
  }

  private get docs(): Collection<UsageDoc> {
    return this.views.db.collection<UsageDoc>('proxy_usage');
  }

  async add(at: LogPosition, user: string, buckets: UsageBucketPartial[]): Promise<void> {
    await this.ready;
    if (buckets.length === 0) return;
    const ops: AnyBulkWriteOperation<UsageDoc>[] = buckets.map((b) => {
      const inc: Record<string, number> = { c: b.clean, f: b.failed, b: b.ban, tr: b.traffic };
      for (const [bin, n] of b.times) inc[`t.b${bin}`] = n;
      for (const [second, n] of b.concurrency) inc[`k.s${second}`] = n;
      return {
        updateOne: {
          filter: { _id: idOf(b.start, user), _o: { $lt: at.offset } },
          update: { $inc: inc, $set: { _o: at.offset }, $setOnInsert: { s: b.start, u: user } },
          upsert: true,
        },
      } as AnyBulkWriteOperation<UsageDoc>;
    });
    await this.docs.bulkWrite(ops, { ordered: false }).catch((e: unknown) => {
      const errors = (e as { writeErrors?: { code?: number }[] | { code?: number } }).writeErrors;
      const list = Array.isArray(errors) ? errors : errors ? [errors] : [];
      // Duplicate keys only: those buckets already hold this event (or a newer one).
      if (list.length === 0 || list.some((w) => w.code !== 11000)) throw e;
    });
  }

  async scan(q: UsageScan): Promise<UsageBucketRow[]> {
    await this.ready;
    if (q.limit <= 0 || (q.users && q.users.length === 0) || q.from >= q.to) return [];
    const range: Record<string, string> = { $gte: startKey(q.from), $lt: startKey(q.to) };
    if (q.after) range.$gt = idOf(q.after.start, q.after.user);
    const filter: Record<string, unknown> = { _id: range };
    if (q.users) filter.u = { $in: q.users };
    const docs = await this.docs.find(filter).sort({ _id: 1 }).limit(q.limit).toArray();
    return docs.map((d) => ({
      user: d.u, start: d.s, clean: d.c ?? 0, failed: d.f ?? 0, ban: d.b ?? 0, traffic: d.tr ?? 0, times: pairsOf(d.t), concurrency: pairsOf(d.k),
    }));
  }
}

function pairsOf(h: Record<string, number> | undefined): UsageHistogram {
  if (!h) return [];
  return Object.entries(h)
    .map(([k, n]): [number, number] => [Number(k.slice(1)), n])
    .filter(([, n]) => n > 0)
    .sort((a, b) => a[0] - b[0]);
}
