import { Inject, Injectable } from '@nestjs/common';
import type { UsageBucketPartial, UsageHistogram } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { fromPairs, mergeInto, toPairs } from '../../domain/histogram';
import type { UsageBucketRow } from '../../domain/usage-rollup';
import { ProxyUsageView, UsageScan } from '../../ports/proxy-usage.view';

interface Row {
  start: number;
  user: string;
  clean: number;
  failed: number;
  ban: number;
  traffic: number;
  times: string;
  conc: string;
  o: number;
}

/**
 * One row per (bucket start, user), primary key in read order; the request-time
 * histogram (`[bin, count]`) and the concurrency (`[second, in flight]`) as JSON pairs,
 * added key by key in code (the batch's transaction covers the read and the
 * write). `o` is the offset of the last event added: the checkpoint already makes
 * re-application impossible here, the guard mirrors the MongoDB adapter.
 */
@Injectable()
export class ProxyUsageSqlite implements ProxyUsageView {
  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`
      CREATE TABLE IF NOT EXISTS proxy_usage (
        start INTEGER NOT NULL, user TEXT NOT NULL, clean INTEGER NOT NULL, failed INTEGER NOT NULL, ban INTEGER NOT NULL,
        traffic INTEGER NOT NULL, times TEXT NOT NULL, conc TEXT NOT NULL, o INTEGER NOT NULL,
        PRIMARY KEY (start, user)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS proxy_usage_user ON proxy_usage (user, start);
    `);
  }

  async add(at: LogPosition, user: string, buckets: UsageBucketPartial[]): Promise<void> {
    const db = this.views.writer;
    const get = db.prepare('SELECT * FROM proxy_usage WHERE start = ? AND user = ?');
    const put = db.prepare(
      `INSERT OR REPLACE INTO proxy_usage (start, user, clean, failed, ban, traffic, times, conc, o) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const b of buckets) {
      const old = get.get(b.start, user) as Row | undefined;
      if (old && old.o >= at.offset) continue;
      const times = merged(old?.times, b.times);
      const conc = merged(old?.conc, b.concurrency);
      put.run(
        b.start, user, (old?.clean ?? 0) + b.clean, (old?.failed ?? 0) + b.failed, (old?.ban ?? 0) + b.ban,
        (old?.traffic ?? 0) + b.traffic, times, conc, at.offset,
      );
    }
  }

  async scan(q: UsageScan): Promise<UsageBucketRow[]> {
    if (q.limit <= 0 || (q.users && q.users.length === 0) || q.from >= q.to) return [];
    const where = ['start >= ?', 'start < ?'];
    const args: (string | number)[] = [q.from, q.to];
    if (q.after) {
      where.push('(start, user) > (?, ?)');
      args.push(q.after.start, q.after.user);
    }
    if (q.users) {
      where.push(`user IN (${q.users.map(() => '?').join(', ')})`);
      args.push(...q.users);
    }
    const rows = this.views.reader
      .prepare(`SELECT * FROM proxy_usage WHERE ${where.join(' AND ')} ORDER BY start, user LIMIT ?`)
      .all(...args, q.limit) as Row[];
    return rows.map((r) => ({
      user: r.user, start: r.start, clean: r.clean, failed: r.failed, ban: r.ban, traffic: r.traffic,
      times: JSON.parse(r.times) as UsageHistogram, concurrency: JSON.parse(r.conc) as UsageHistogram,
    }));
  }
}

function merged(stored: string | undefined, add: UsageHistogram): string {
  const h = fromPairs(stored ? (JSON.parse(stored) as UsageHistogram) : []);
  mergeInto(h, add);
  return JSON.stringify(toPairs(h));
}
