import { Inject, Injectable } from '@nestjs/common';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { AccessKey } from '../../domain/access-key';
import { AccessKeysView } from '../../ports/access-keys.view';

interface Row {
  key_id: string;
  digest: string;
  admin: number;
  projects: string;
  label: string;
}
const toKey = (r: Row): AccessKey => ({ keyId: r.key_id, digest: r.digest, admin: r.admin === 1, projects: JSON.parse(r.projects), label: r.label });

@Injectable()
export class AccessKeysSqlite implements AccessKeysView {
  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`CREATE TABLE IF NOT EXISTS access_keys (
      key_id TEXT PRIMARY KEY, digest TEXT NOT NULL UNIQUE, admin INTEGER NOT NULL, projects TEXT NOT NULL, label TEXT NOT NULL)`);
  }

  async add(_at: LogPosition, k: AccessKey): Promise<void> {
    this.views.writer
      .prepare('INSERT OR REPLACE INTO access_keys (key_id, digest, admin, projects, label) VALUES (?, ?, ?, ?, ?)')
      .run(k.keyId, k.digest, k.admin ? 1 : 0, JSON.stringify(k.projects), k.label);
  }

  async revoke(_at: LogPosition, keyId: string): Promise<void> {
    this.views.writer.prepare('DELETE FROM access_keys WHERE key_id = ?').run(keyId);
  }

  async findByDigest(digest: string): Promise<AccessKey | null> {
    const row = this.views.reader.prepare('SELECT * FROM access_keys WHERE digest = ?').get(digest) as Row | undefined;
    return row ? toKey(row) : null;
  }

  async list(): Promise<AccessKey[]> {
    return (this.views.reader.prepare('SELECT * FROM access_keys ORDER BY key_id').all() as Row[]).map(toKey);
  }
}
