import { StoredRecord } from '../ports/job-records.view';
import { keyFirst, RecordKind, takesMeta } from './record-kinds';

/** Appends the asked meta fields: `_key` first for logs and requests, last for items; `_ts` last. */
export function withMeta(kind: RecordKind, project: number, meta: string[], nodata: boolean): (r: StoredRecord) => string {
  const wantKey = meta.includes('_key');
  const wantTs = meta.includes('_ts');
  if ((!wantKey && !wantTs && !nodata) || !takesMeta(kind)) return (r) => r.json;
  const first = keyFirst(kind);
  return (r) => {
    const key = wantKey ? `"_key":"${project}/${r.spider}/${r.job}/${r.pos}"` : '';
    const ts = wantTs ? `"_ts":${r.ts}` : '';
    const body = nodata ? '' : r.json.slice(1, -1);
    const parts = first ? [key, body, ts] : [body, key, ts];
    return `{${parts.filter((p) => p !== '').join(',')}}`;
  };
}
