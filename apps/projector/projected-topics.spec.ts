import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@crawlhub/config';
import { openCore, PROJECTED_TOPICS } from '@crawlhub/platform';
import { createProjector } from './projector.app';

describe('PROJECTED_TOPICS', () => {
  it('are the topics the projector applies (readiness and the lag metrics watch these)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawlhub-topics-'));
    const core = await openCore(loadConfig({ DATA_DIR: dir }));
    try {
      const { context, projector } = await createProjector(core, false);
      expect(projector.topics()).toEqual(PROJECTED_TOPICS);
      await context.close();
    } finally {
      await core.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
