import { globalAgent } from 'node:http';
import { AddressInfo } from 'node:net';
import { startExtractApp } from '../../apps/extract/extract.app';
import { startProxyApp } from '../../apps/proxy/proxy.app';
import { startWorkerApp } from '../../apps/worker/worker.app';
import { ExtractionSite, startExtractionSite } from '../../bench/extraction-site';
import { startTestPlatform, TestPlatform } from './platform';

/** What the extraction suites run against: a test platform with a proxy, an extraction worker and the API, and the loopback site. */
export interface ExtractionStack {
  platform: TestPlatform;
  site: ExtractionSite;
  /** `http://127.0.0.1:<port>` of the extraction API. */
  apiUrl: string;
  close(): Promise<void>;
}

/** Starts it with loopback targets allowed and throttling off (`env` adds or overrides settings). */
export async function startExtractionStack(env: Record<string, string> = {}): Promise<ExtractionStack> {
  const site = await startExtractionSite();
  const platform = await startTestPlatform({ PROXY_PORT: '0', EXTRACT_PORT: '0', ALLOW_PRIVATE_TARGETS: 'true', PROXY_THROTTLE_SPACING_MS: '0', WORKER_KINDS: 'extract', ...env });
  const proxy = await startProxyApp(platform.core, ['error']);
  const { context: worker } = await startWorkerApp(platform.core, ['error'], proxy.port);
  const app = await startExtractApp(platform.core, ['error']);
  return {
    platform,
    site,
    apiUrl: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`,
    close: async () => {
      await app.close();
      await worker.close();
      await proxy.close();
      await platform.stop();
      await site.close();
      globalAgent.destroy();
    },
  };
}
