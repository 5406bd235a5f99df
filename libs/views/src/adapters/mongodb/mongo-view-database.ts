import type { Db, MongoClient } from 'mongodb';
import { mongodbDriver } from './mongodb-driver';

/**
 * The distributed view store: one MongoDB database through the official driver's
 * plain API (no transactions, so it also runs on wire-compatible servers). Views
 * declare their indexes at start with `defineIndexes`.
 */
export class MongoViewDatabase {
  private readonly setups: ((db: Db) => Promise<void>)[] = [];

  private constructor(readonly client: MongoClient, readonly db: Db) {}

  static async connect(options: { uri: string; database: string }): Promise<MongoViewDatabase> {
    const client = new (mongodbDriver().MongoClient)(options.uri, { serverSelectionTimeoutMS: 10_000 });
    await client.connect();
    return new MongoViewDatabase(client, client.db(options.database));
  }

  /** Creates indexes now and again after a reset. */
  async defineIndexes(setup: (db: Db) => Promise<void>): Promise<void> {
    this.setups.push(setup);
    await setup(this.db);
  }

  async dropAll(): Promise<void> {
    for (const c of await this.db.listCollections({}, { nameOnly: true }).toArray()) {
      if (!c.name.startsWith('system.')) await this.db.collection(c.name).drop();
    }
    for (const setup of this.setups) await setup(this.db);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
