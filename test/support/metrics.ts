import { basic } from './platform';

/** GET /metrics of a port (with the admin key when given), its Prometheus text. */
export async function scrape(baseUrl: string, adminKey?: string): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: adminKey ? { Authorization: basic(adminKey) } : {} });
  if (res.status !== 200) throw new Error(`GET ${baseUrl}/metrics answered ${res.status}: ${await res.text()}`);
  return res.text();
}

/**
 * The value of a series in Prometheus text: the sum over the lines of metric `name` whose
 * labels include every pair of `labels` (0 when none does). Label values here never hold
 * `",` so a split on them is exact.
 */
export function sample(text: string, name: string, labels: Record<string, string | number> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = new Map((m[2] ?? '').split('",').filter(Boolean).map((pair) => {
      const eq = pair.indexOf('=');
      return [pair.slice(0, eq), pair.slice(eq + 2).replace(/"$/, '')] as [string, string];
    }));
    if (Object.entries(labels).every(([k, v]) => have.get(k) === String(v))) sum += Number(m[3]);
  }
  return sum;
}

/** Whether the text has a line of metric `name` with every pair of `labels`. */
export function hasSeries(text: string, name: string, labels: Record<string, string | number> = {}): boolean {
  return text
    .split('\n')
    .some((line) => (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) && Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)));
}
