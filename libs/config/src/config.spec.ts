import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_DOCS, ConfigError, loadConfig } from './config';
import { CONFIG_TABLE_START, plainText, withConfigTable } from './config-docs';

describe('loadConfig', () => {
  it('works with no configuration at all', () => {
    const c = loadConfig({});
    expect(c.eventLog.kind).toBe('sqlite');
    expect(c.viewStore.kind).toBe('sqlite');
    expect(c.ports.storage).toBe(8002);
    expect(c.roles).toContain('storage');
    expect(c.allowPrivateTargets).toBe(false);
  });

  it('reads the addresses allowed although not public (ALLOW_TARGET_ADDRESSES)', () => {
    expect(loadConfig({}).allowTargetAddresses).toEqual([]);
    expect(loadConfig({ ALLOW_TARGET_ADDRESSES: '127.0.0.5, 10.8.0.0/16,::1' }).allowTargetAddresses).toEqual(['127.0.0.5', '10.8.0.0/16', '::1']);
    expect(() => loadConfig({ ALLOW_TARGET_ADDRESSES: '10.0.0.0/33,example.com' })).toThrow(/10\.0\.0\.0\/33 must be[\s\S]*example\.com must be/);
  });

  it('reads roles, kafka and mongodb settings', () => {
    const c = loadConfig({ APP_ROLE: 'storage,projector', EVENT_LOG: 'kafka', KAFKA_BROKERS: '127.0.0.1:9092, 127.0.0.1:9093', VIEW_STORE: 'mongodb', MONGODB_URI: 'mongodb://127.0.0.1:27017/' });
    expect(c.roles).toEqual(['storage', 'projector']);
    expect(c.eventLog).toEqual({ kind: 'kafka', partitions: 8, namespace: '', brokers: ['127.0.0.1:9092', '127.0.0.1:9093'] });
    expect(c.viewStore).toEqual({ kind: 'mongodb', uri: 'mongodb://127.0.0.1:27017/', database: 'crawlhub' });
  });

  it('reads the collections settings, with defaults', () => {
    expect(loadConfig({}).collections).toEqual({ expirySeconds: 2_592_000, versions: 3, scanBatch: 100_000 });
    const c = loadConfig({ COLLECTION_EXPIRY_SECONDS: '2', COLLECTION_VERSIONS: '5', COLLECTION_SCAN_BATCH: '7' });
    expect(c.collections).toEqual({ expirySeconds: 2, versions: 5, scanBatch: 7 });
    expect(() => loadConfig({ COLLECTION_VERSIONS: '0' })).toThrow('COLLECTION_VERSIONS');
  });

  it('reads the frontier settings, with defaults', () => {
    expect(loadConfig({}).frontier).toEqual({ maxPostBytes: 4 * 1024 * 1024, countBatches: 10_000 });
    expect(loadConfig({ FRONTIER_MAX_POST_BYTES: '65536', FRONTIER_COUNT_BATCHES: '3' }).frontier).toEqual({ maxPostBytes: 65536, countBatches: 3 });
    expect(() => loadConfig({ FRONTIER_COUNT_BATCHES: '0' })).toThrow('FRONTIER_COUNT_BATCHES');
  });

  it('reads the proxy usage statistics settings, with defaults', () => {
    expect(loadConfig({}).proxyStats).toEqual({ flushMs: 10_000, sampleMs: 1000 });
    expect(loadConfig({ PROXY_STATS_FLUSH_MS: '50', PROXY_STATS_SAMPLE_MS: '20' }).proxyStats).toEqual({ flushMs: 50, sampleMs: 20 });
    expect(() => loadConfig({ PROXY_STATS_FLUSH_MS: '0' })).toThrow('PROXY_STATS_FLUSH_MS');
    expect(() => loadConfig({ PROXY_STATS_SAMPLE_MS: '5000' })).toThrow('PROXY_STATS_SAMPLE_MS');
  });

  it('reads the proxy settings, with defaults', () => {
    const d = loadConfig({ DATA_DIR: '/tmp/d' }).proxy;
    expect(d).toMatchObject({ caDir: '/tmp/d/proxy-ca', exits: [{ kind: 'local', localAddress: null }], upstreamTlsVerify: true, upstreamCaFile: null, timeoutMinMs: 30_000, timeoutMaxMs: 180_000 });
    expect(d.maxResponseBytes).toBe(500 * 1024 * 1024);
    expect(d.banRules).toEqual([{ status: [403, 429, 503] }]);
    const c = loadConfig({
      PROXY_EXITS: '127.0.0.2, http://u:p@127.0.0.1:3128 region=US, socks5://127.0.0.1:1080, https://proxy.test:8443  region=de',
      PROXY_STATIC_HOSTS: 'site.test=127.0.0.1',
      PROXY_DENY_DOMAINS: 'Bad.Example, *.worse.example',
      PROXY_BAN_RULES: '[{"domain":"Shop.Test","status":[200],"body":["captcha"]}]',
    }).proxy;
    expect(c.exits).toEqual([
      { kind: 'local', localAddress: '127.0.0.2' },
      { kind: 'http', url: 'http://u:p@127.0.0.1:3128', region: 'us' },
      { kind: 'socks5', url: 'socks5://127.0.0.1:1080' },
      { kind: 'https', url: 'https://proxy.test:8443', region: 'de' },
    ]);
    expect(() => loadConfig({ PROXY_EXITS: '127.0.0.2 country=us' })).toThrow('region=<label>');
    expect(c.staticHosts).toEqual({ 'site.test': '127.0.0.1' });
    expect(c.denyDomains).toEqual(['bad.example', 'worse.example']);
    expect(c.banRules).toEqual([{ domain: 'shop.test', status: [200], body: ['captcha'] }]);
    expect(() => loadConfig({ PROXY_EXITS: 'not an exit' })).toThrow('PROXY_EXITS');
    expect(() => loadConfig({ PROXY_BAN_RULES: '[{"domain":"x"}]' })).toThrow('PROXY_BAN_RULES');
    expect(() => loadConfig({ PROXY_STATIC_HOSTS: 'a.test=nowhere' })).toThrow('PROXY_STATIC_HOSTS');
    expect(() => loadConfig({ PROXY_TIMEOUT_MIN_MS: '5000', PROXY_TIMEOUT_MAX_MS: '1000' })).toThrow('PROXY_TIMEOUT_MIN_MS');
    expect(loadConfig({}).proxy.throttle).toEqual({ spacingMs: 12_000, softLimitMs: 120_000, hardLimitMs: 1_000_000 });
    expect(() => loadConfig({ PROXY_THROTTLE_SOFT_LIMIT_MS: '2000', PROXY_THROTTLE_HARD_LIMIT_MS: '1000' })).toThrow('PROXY_THROTTLE_SOFT_LIMIT_MS');
  });

  it('reads the render pool settings, with defaults', () => {
    expect(loadConfig({}).render).toEqual({ chromiumPath: '/usr/lib/chromium/chromium-headless-shell', concurrency: 2, queueLimit: 100, timeoutMs: 30_000, recyclePages: 500, recycleRssMb: 1024 });
    const c = loadConfig({ CHROMIUM_PATH: '/opt/chromium', RENDER_CONCURRENCY: '4', RENDER_QUEUE_LIMIT: '0', RENDER_TIMEOUT_MS: '500', RENDER_RECYCLE_PAGES: '3', RENDER_RECYCLE_RSS_MB: '300' }).render;
    expect(c).toEqual({ chromiumPath: '/opt/chromium', concurrency: 4, queueLimit: 0, timeoutMs: 500, recyclePages: 3, recycleRssMb: 300 });
    expect(() => loadConfig({ RENDER_CONCURRENCY: '0' })).toThrow('RENDER_CONCURRENCY');
  });

  it('reads the heap growth between full collections: V8 its own by default, a percent within 1..300 otherwise', () => {
    expect(loadConfig({}).heapGrowingPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '30' }).heapGrowingPercent).toBe(30);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '301' })).toThrow('HEAP_GROWING_PERCENT');
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '-1' })).toThrow('HEAP_GROWING_PERCENT');
  });

  it('lists every problem at once', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ EVENT_LOG: 'kafka', STORAGE_PORT: 'x', APP_ROLE: 'storage,nope', ALLOW_PRIVATE_TARGETS: 'maybe' });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems).toHaveLength(4);
    expect(error!.message).toContain('KAFKA_BROKERS');
    expect(error!.message).toContain('STORAGE_PORT=x');
  });
});

describe('CONFIG_DOCS', () => {
  const root = join(__dirname, '../../..');
  const documented = CONFIG_DOCS.flatMap(([names]) => names.split(/\s+/));

  it('documents every setting loadConfig reads, also those read only in some deployments', () => {
    const read = new Set<string>();
    const deployment: Record<string, string> = { EVENT_LOG: 'kafka', KAFKA_BROKERS: '127.0.0.1:9092', VIEW_STORE: 'mongodb', MONGODB_URI: 'mongodb://127.0.0.1/', OPS_PORT: '9000' };
    const env = new Proxy(deployment, {
      get: (target, name) => {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    });
    loadConfig(env);
    expect(read.size).toBeGreaterThan(80);
    expect([...read].filter((n) => !documented.includes(n))).toEqual([]);
    expect(documented.filter((n) => !read.has(n))).toEqual([]);
  });

  it('is the README\'s settings table: a stale README fails here until `npm run docs:config` writes it', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(CONFIG_TABLE_START);
    expect(readme).toBe(withConfigTable(readme));
    const stale = readme.replace('| `DATA_DIR` | `./data` |', '| `DATA_DIR` | `./old` |');
    expect(stale).not.toBe(readme);
    expect(withConfigTable(stale)).toBe(readme);
  });

  it('reads as plain text in --help', () => {
    expect(plainText('a link ([docs/proxy.md](docs/proxy.md#sessions)) and `code`')).toBe('a link (docs/proxy.md) and code');
  });
});
