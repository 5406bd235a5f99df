import { Inject, Injectable } from '@nestjs/common';
import type { KeyCapability } from '@crawlhub/contracts';
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
  capabilities: string | null;
}
const toKey = (r: Row): AccessKey => ({ keyId: r.key_id, digest: r.digest, admin: r.admin === 1, projects: JSON.parse(r.projects), label: r.label, capabilities: r.capabilities ? JSON.parse(r.capabilities) : [] });
const SELECT = 'SELECT k.*, c.capabilities FROM access_keys k LEFT JOIN access_key_capabilities c ON c.key_id = k.key_id';

/** Capabilities have a table of their own, so that views written before they existed need no migration. */
@Injectable()
export class AccessKeysSqlite implements AccessKeysView {
  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`CREATE TABLE IF NOT EXISTS access_keys (
      key_id TEXT PRIMARY KEY, digest TEXT NOT NULL UNIQUE, admin INTEGER NOT NULL, projects TEXT NOT NULL, label TEXT NOT NULL)`);
    views.defineSchema('CREATE TABLE IF NOT EXISTS access_key_capabilities (key_id TEXT PRIMARY KEY, capabilities TEXT NOT NULL)');
  }

  async add(_at: LogPosition, k: AccessKey): Promise<void> {
    this.views.writer
      .prepare('INSERT OR REPLACE INTO access_keys (key_id, digest, admin, projects, label) VALUES (?, ?, ?, ?, ?)')
      .run(k.keyId, k.digest, k.admin ? 1 : 0, JSON.stringify(k.projects), k.label);
    this.writeCapabilities(k.keyId, k.capabilities);
  }

  async revoke(_at: LogPosition, keyId: string): Promise<void> {
    this.views.writer.prepare('DELETE FROM access_keys WHERE key_id = ?').run(keyId);
    this.writeCapabilities(keyId, []);
  }

  async setCapabilities(_at: LogPosition, keyId: string, capabilities: KeyCapability[]): Promise<void> {
    if (this.views.writer.prepare('SELECT 1 FROM access_keys WHERE key_id = ?').get(keyId)) this.writeCapabilities(keyId, capabilities);
  }

  async findByDigest(digest: string): Promise<AccessKey | null> {
    const row = this.views.reader.prepare(`${SELECT} WHERE k.digest = ?`).get(digest) as Row | undefined;
    return row ? toKey(row) : null;
  }

  async findById(keyId: string): Promise<AccessKey | null> {
    const row = this.views.reader.prepare(`${SELECT} WHERE k.key_id = ?`).get(keyId) as Row | undefined;
    return row ? toKey(row) : null;
  }

  async list(): Promise<AccessKey[]> {
    return (this.views.reader.prepare(`${SELECT} ORDER BY k.key_id`).all() as Row[]).map(toKey);
  }

  private writeCapabilities(keyId: string, capabilities: KeyCapability[]): void {
    if (capabilities.length === 0) this.views.writer.prepare('DELETE FROM access_key_capabilities WHERE key_id = ?').run(keyId);
    else this.views.writer.prepare('INSERT OR REPLACE INTO access_key_capabilities (key_id, capabilities) VALUES (?, ?)').run(keyId, JSON.stringify(capabilities));
  }
}
