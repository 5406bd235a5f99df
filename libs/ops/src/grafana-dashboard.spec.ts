import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsRegistry } from './metrics';

/** docker/grafana-dashboard.json asks only for series this code makes (a renamed metric would leave a panel empty). */
describe('the Grafana dashboard', () => {
  it('queries only metrics of the registry', async () => {
    const dashboard = JSON.parse(readFileSync(join(__dirname, '../../../docker/grafana-dashboard.json'), 'utf8')) as { panels: { targets: { expr: string }[] }[] };
    const known = new Set((await metricsRegistry.getMetricsAsJSON()).map((m) => m.name));
    const used = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => t.expr.match(/crawlhub_[a-z0-9_]+/g) ?? []));
    expect(used.length).toBeGreaterThan(15);
    expect(used.map((name) => name.replace(/_(bucket|count|sum)$/, '')).filter((name) => !known.has(name))).toEqual([]);
  });
});
