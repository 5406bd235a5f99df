import { Inject, Injectable } from '@nestjs/common';
import { Collection } from 'mongodb';
import type { KeyCapability } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoViewDatabase } from '@crawlhub/views';
import { AccessKey } from '../../domain/access-key';
import { AccessKeysView } from '../../ports/access-keys.view';

interface KeyDoc {
  _id: string;
  digest?: string;
  admin?: boolean;
  projects?: number[];
  label?: string;
  capabilities?: KeyCapability[];
  /**
   * A revoked key stays as a tombstone (no digest), so that re-applying its older
   * `created` event after a crash cannot bring it back, even for a moment.
   */
  revoked?: true;
  /** Offset of the event that last changed it: older or equal events are skipped. */
  _o: number;
}

const live = { revoked: { $ne: true as const } };
const toKey = (d: KeyDoc): AccessKey => ({ keyId: d._id, digest: d.digest!, admin: d.admin!, projects: d.projects!, label: d.label!, capabilities: d.capabilities ?? [] });

/** A key's id is derived from its digest (keyIdOf), so one digest never has two live keys. */
@Injectable()
export class AccessKeysMongo implements AccessKeysView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) private readonly views: MongoViewDatabase) {
    this.ready = views.defineIndexes(async (db) => {
      await db.collection<KeyDoc>('access_keys').createIndex({ digest: 1 }, { name: 'digest' });
    });
    this.ready.catch(() => undefined);
  }

  private get keys(): Collection<KeyDoc> {
    return this.views.db.collection<KeyDoc>('access_keys');
  }

  async add(at: LogPosition, k: AccessKey): Promise<void> {
    await this.ready;
    const doc: KeyDoc = { _id: k.keyId, digest: k.digest, admin: k.admin, projects: k.projects, label: k.label, capabilities: k.capabilities, _o: at.offset };
    await this.putIfNewer(doc);
  }

  async revoke(at: LogPosition, keyId: string): Promise<void> {
    await this.ready;
    await this.putIfNewer({ _id: keyId, revoked: true, _o: at.offset });
  }

  async setCapabilities(at: LogPosition, keyId: string, capabilities: KeyCapability[]): Promise<void> {
    await this.ready;
    await this.keys.updateOne({ _id: keyId, ...live, _o: { $lt: at.offset } }, { $set: { capabilities, _o: at.offset } });
  }

  async findByDigest(digest: string): Promise<AccessKey | null> {
    await this.ready;
    const doc = await this.keys.findOne({ digest, ...live });
    return doc ? toKey(doc) : null;
  }

  async findById(keyId: string): Promise<AccessKey | null> {
    await this.ready;
    const doc = await this.keys.findOne({ _id: keyId, ...live });
    return doc ? toKey(doc) : null;
  }

  async list(): Promise<AccessKey[]> {
    await this.ready;
    return (await this.keys.find(live).sort({ _id: 1 }).toArray()).map(toKey);
  }

  private async putIfNewer(doc: KeyDoc): Promise<void> {
    const old = await this.keys.findOne({ _id: doc._id }, { projection: { _o: 1 } });
    if (old && old._o >= doc._o) return;
    await this.keys.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }
}
