// Smoke test of the MongoDB-protocol test server (test/infra/mongodb.sh) through the plain
// `mongodb` driver API: the operations our adapters rely on must behave as on real MongoDB.
// Runs only when MONGODB_URI is set (test/run-tests.sh starts a server and sets it).
import { Binary, Db, Long, MongoClient, MongoServerError, ObjectId } from 'mongodb';
import { describeIf, needs } from '../support/skip';

const uri = process.env.MONGODB_URI ?? '';

describeIf(needs.mongodb)('mongodb test server', () => {
  jest.setTimeout(120_000);
  let client: MongoClient;
  let db: Db;
  const dbName = `smoke_${process.pid}_${Date.now()}`;

  beforeAll(async () => {
    client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
    await client.connect();
    db = client.db(dbName);
  });

  afterAll(async () => {
    if (db) await db.dropDatabase().catch(() => undefined);
    if (client) await client.close();
  });

  it('answers ping', async () => {
    const res = await db.admin().command({ ping: 1 });
    expect(res.ok).toBe(1);
  });

  it('round-trips common BSON types', async () => {
    const c = db.collection('types');
    const when = new Date('2024-05-06T07:08:09.123Z');
    const oid = new ObjectId();
    await c.insertOne({
      _id: 'doc1' as any,
      s: 'text',
      n: 42,
      f: 1.5,
      l: Long.fromString('9007199254740993'),
      b: true,
      nil: null,
      d: when,
      bin: new Binary(Buffer.from([0, 1, 2, 255])),
      oid,
      arr: [1, 'two', { three: 3 }],
      nested: { a: { b: 'deep' } },
    });
    const got = await c.findOne({ _id: 'doc1' as any }, { promoteLongs: false });
    expect(got).not.toBeNull();
    expect(got!.s).toBe('text');
    expect(got!.n).toBe(42);
    expect(got!.f).toBe(1.5);
    expect(Long.isLong(got!.l) && got!.l.toString()).toBe('9007199254740993');
    expect(got!.b).toBe(true);
    expect(got!.nil).toBeNull();
    expect(got!.d).toEqual(when);
    expect(Buffer.from(got!.bin.buffer)).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(got!.oid.equals(oid)).toBe(true);
    expect(got!.arr).toEqual([1, 'two', { three: 3 }]);
    expect(await c.findOne({ 'nested.a.b': 'deep' })).not.toBeNull();
    expect(await c.findOne({ d: { $gte: when } })).not.toBeNull();
  });

  it('insertOne/insertMany assign ids and unique indexes raise 11000', async () => {
    const c = db.collection('uniq');
    const name = await c.createIndex({ project: 1, key: 1 }, { unique: true, name: 'project_key' });
    expect(name).toBe('project_key');
    const r1 = await c.insertOne({ project: 1, key: 'a' });
    expect(r1.insertedId).toBeInstanceOf(ObjectId);
    const r2 = await c.insertMany([{ project: 1, key: 'b' }, { project: 2, key: 'a' }]);
    expect(r2.insertedCount).toBe(2);

    const dup = await c.insertOne({ project: 1, key: 'a' }).catch((e) => e);
    expect(dup).toBeInstanceOf(MongoServerError);
    expect(dup.code).toBe(11000);

    // Ordered insertMany stops at the first duplicate.
    const ordered = await c
      .insertMany([{ project: 3, key: 'x' }, { project: 1, key: 'b' }, { project: 3, key: 'y' }])
      .catch((e) => e);
    expect(ordered.code).toBe(11000);
    expect(await c.countDocuments({ project: 3 })).toBe(1);

    // Unordered insertMany inserts everything else.
    const unordered = await c
      .insertMany([{ project: 4, key: 'x' }, { project: 1, key: 'b' }, { project: 4, key: 'y' }], {
        ordered: false,
      })
      .catch((e) => e);
    expect(unordered.code).toBe(11000);
    expect(unordered.writeErrors?.length ?? 1).toBe(1);
    expect(await c.countDocuments({ project: 4 })).toBe(2);

    // Updates that would create a duplicate are rejected as well.
    const upd = await c.updateOne({ project: 4, key: 'y' }, { $set: { key: 'x' } }).catch((e) => e);
    expect(upd.code).toBe(11000);

    const indexes = await c.listIndexes().toArray();
    const idx = indexes.find((i) => i.name === 'project_key');
    expect(idx?.unique).toBe(true);
    expect(idx?.key).toEqual({ project: 1, key: 1 });
  });

  it('updateOne/updateMany with $set/$inc/$unset/$setOnInsert/$max', async () => {
    const c = db.collection('upd');
    await c.insertMany([
      { _id: 1 as any, g: 'a', n: 1, hi: 5, tmp: 'x' },
      { _id: 2 as any, g: 'a', n: 2, hi: 5, tmp: 'y' },
      { _id: 3 as any, g: 'b', n: 3, hi: 5 },
    ]);

    const r = await c.updateOne({ _id: 1 as any }, { $set: { s: 'set' }, $inc: { n: 10 }, $unset: { tmp: '' } });
    expect(r.matchedCount).toBe(1);
    expect(r.modifiedCount).toBe(1);
    expect(await c.findOne({ _id: 1 as any })).toEqual({ _id: 1, g: 'a', n: 11, hi: 5, s: 'set' });

    const m = await c.updateMany({ g: 'a' }, { $inc: { n: 1, cnt: 1 }, $max: { hi: 7 } });
    expect(m.matchedCount).toBe(2);
    expect(m.modifiedCount).toBe(2);
    const as = await c.find({ g: 'a' }).sort({ _id: 1 }).toArray();
    expect(as.map((d) => [d.n, d.cnt, d.hi])).toEqual([[12, 1, 7], [3, 1, 7]]);

    // $max that does not raise the value leaves the document unmodified.
    const noop = await c.updateOne({ _id: 3 as any }, { $max: { hi: 1 } });
    expect(noop.matchedCount).toBe(1);
    expect(noop.modifiedCount).toBe(0);

    // $setOnInsert applies only when the upsert inserts.
    const ins = await c.updateOne(
      { _id: 4 as any },
      { $setOnInsert: { created: 'first' }, $set: { seen: 1 }, $inc: { hits: 1 } },
      { upsert: true },
    );
    expect(ins.upsertedCount).toBe(1);
    expect(ins.upsertedId).toBe(4);
    const again = await c.updateOne(
      { _id: 4 as any },
      { $setOnInsert: { created: 'second' }, $set: { seen: 2 }, $inc: { hits: 1 } },
      { upsert: true },
    );
    expect(again.upsertedCount).toBe(0);
    expect(again.matchedCount).toBe(1);
    expect(await c.findOne({ _id: 4 as any })).toEqual({ _id: 4, created: 'first', seen: 2, hits: 2 });

    // Upsert with a query on non-_id fields copies the equality fields into the new doc.
    const byKey = await c.updateOne({ g: 'c', k: 7 }, { $set: { v: 1 } }, { upsert: true });
    expect(byKey.upsertedId).toBeInstanceOf(ObjectId);
    const created = await c.findOne({ g: 'c' });
    expect(created).toMatchObject({ g: 'c', k: 7, v: 1 });

    const none = await c.updateMany({ g: 'zzz' }, { $set: { x: 1 } });
    expect(none.matchedCount).toBe(0);
  });

  it('findOneAndUpdate with upsert and returnDocument', async () => {
    const c = db.collection('fau');
    const before = await c.findOneAndUpdate(
      { _id: 'seq' as any },
      { $inc: { value: 1 }, $setOnInsert: { created: true } },
      { upsert: true, returnDocument: 'before' },
    );
    expect(before).toBeNull();
    const after = await c.findOneAndUpdate(
      { _id: 'seq' as any },
      { $inc: { value: 1 }, $setOnInsert: { created: false } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(after).toEqual({ _id: 'seq', value: 2, created: true });
    const prev = await c.findOneAndUpdate({ _id: 'seq' as any }, { $inc: { value: 5 } }, { returnDocument: 'before' });
    expect(prev?.value).toBe(2);
    const meta = await c.findOneAndUpdate(
      { _id: 'seq' as any },
      { $inc: { value: 1 } },
      { returnDocument: 'after', includeResultMetadata: true, projection: { value: 1 } },
    );
    expect(meta.ok).toBe(1);
    expect(meta.value).toEqual({ _id: 'seq', value: 8 });
    const missing = await c.findOneAndUpdate({ _id: 'nope' as any }, { $inc: { value: 1 } }, { returnDocument: 'after' });
    expect(missing).toBeNull();

    // With a sort it picks the first matching document in that order.
    await c.insertMany([
      { q: 'job', pri: 1, state: 'new' },
      { q: 'job', pri: 3, state: 'new' },
      { q: 'job', pri: 2, state: 'new' },
    ]);
    const claimed = await c.findOneAndUpdate(
      { q: 'job', state: 'new' },
      { $set: { state: 'running' } },
      { sort: { pri: -1 }, returnDocument: 'after' },
    );
    expect(claimed).toMatchObject({ pri: 3, state: 'running' });
  });

  it('find with filter/sort/skip/limit/projection on a compound index', async () => {
    const c = db.collection('items');
    await c.createIndex({ job: 1, seq: -1 });
    const docs = [];
    for (let i = 0; i < 200; i++) docs.push({ job: `j${i % 4}`, seq: i, body: `b${i}`, big: 'x'.repeat(50) });
    await c.insertMany(docs);

    const page = await c
      .find({ job: 'j1', seq: { $gte: 10, $lt: 150 } }, { projection: { _id: 0, seq: 1, body: 1 } })
      .sort({ job: 1, seq: -1 })
      .skip(2)
      .limit(5)
      .toArray();
    expect(page).toEqual([
      { seq: 141, body: 'b141' },
      { seq: 137, body: 'b137' },
      { seq: 133, body: 'b133' },
      { seq: 129, body: 'b129' },
      { seq: 125, body: 'b125' },
    ]);

    const excl = await c.find({ seq: 5 }, { projection: { big: 0, _id: 0 } }).toArray();
    expect(excl).toEqual([{ job: 'j1', seq: 5, body: 'b5' }]);

    const multi = await c.find({ job: { $in: ['j0', 'j2'] }, seq: { $lt: 10 } }).sort({ seq: 1 }).toArray();
    expect(multi.map((d) => d.seq)).toEqual([0, 2, 4, 6, 8]);

    const sorted2 = await c.find({ seq: { $lt: 8 } }).sort({ job: -1, seq: 1 }).toArray();
    expect(sorted2.map((d) => d.seq)).toEqual([3, 7, 2, 6, 1, 5, 0, 4]);

    // Cursor batching: more than the default first batch of 101.
    expect((await c.find({}).toArray()).length).toBe(200);
    let n = 0;
    for await (const _ of c.find({}, { batchSize: 30 })) n++;
    expect(n).toBe(200);

    expect(await c.countDocuments({ job: 'j3' })).toBe(50);
    expect(await c.countDocuments({ job: 'j3' }, { skip: 10, limit: 5 })).toBe(5);
    expect(await c.countDocuments({})).toBe(200);
    expect(await c.countDocuments({ job: 'j0', missing: { $exists: false } })).toBe(50);
    expect(await c.estimatedDocumentCount()).toBe(200);

    const del = await c.deleteMany({ job: 'j2' });
    expect(del.deletedCount).toBe(50);
    expect(await c.countDocuments({})).toBe(150);
    const one = await c.deleteOne({ job: 'j0' });
    expect(one.deletedCount).toBe(1);
  });

  it('bulkWrite ordered and unordered with upserts', async () => {
    const c = db.collection('bulk');
    await c.createIndex({ k: 1 }, { unique: true });
    const r = await c.bulkWrite([
      { insertOne: { document: { k: 'a', v: 1 } } },
      { updateOne: { filter: { k: 'b' }, update: { $set: { v: 2 }, $setOnInsert: { born: 1 } }, upsert: true } },
      { updateOne: { filter: { k: 'a' }, update: { $inc: { v: 10 } } } },
      { updateMany: { filter: { k: { $in: ['a', 'b'] } }, update: { $set: { touched: true } } } },
      { replaceOne: { filter: { k: 'c' }, replacement: { k: 'c', v: 3 }, upsert: true } },
      { deleteOne: { filter: { k: 'zzz' } } },
    ]);
    expect(r.insertedCount).toBe(1);
    expect(r.upsertedCount).toBe(2);
    expect(r.matchedCount).toBe(3);
    expect(r.modifiedCount).toBe(3);
    expect(r.deletedCount).toBe(0);
    expect(Object.keys(r.upsertedIds).sort()).toEqual(['1', '4']);
    expect(await c.find({}, { projection: { _id: 0 } }).sort({ k: 1 }).toArray()).toEqual([
      { k: 'a', v: 11, touched: true },
      { k: 'b', v: 2, born: 1, touched: true },
      { k: 'c', v: 3 },
    ]);

    const ordered = await c
      .bulkWrite([
        { insertOne: { document: { k: 'd' } } },
        { insertOne: { document: { k: 'a' } } },
        { insertOne: { document: { k: 'e' } } },
      ])
      .catch((e) => e);
    expect(ordered.code).toBe(11000);
    expect(await c.countDocuments({ k: { $in: ['d', 'e'] } })).toBe(1);

    const unordered = await c
      .bulkWrite(
        [
          { insertOne: { document: { k: 'f' } } },
          { insertOne: { document: { k: 'a' } } },
          { updateOne: { filter: { k: 'g' }, update: { $set: { v: 1 } }, upsert: true } },
        ],
        { ordered: false },
      )
      .catch((e) => e);
    expect(unordered.code).toBe(11000);
    expect(unordered.writeErrors.length).toBe(1);
    expect(unordered.writeErrors[0].index).toBe(1);
    expect(await c.countDocuments({ k: { $in: ['f', 'g'] } })).toBe(2);
  });

  it('aggregate with $match/$group/$sort', async () => {
    const c = db.collection('agg');
    await c.insertMany([
      { job: 'a', status: 'ok', bytes: 10 },
      { job: 'a', status: 'ok', bytes: 20 },
      { job: 'a', status: 'err', bytes: 5 },
      { job: 'b', status: 'ok', bytes: 7 },
    ]);
    const res = await c
      .aggregate([
        { $match: { status: 'ok' } },
        { $group: { _id: '$job', n: { $sum: 1 }, total: { $sum: '$bytes' }, max: { $max: '$bytes' } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(res).toEqual([
      { _id: 'a', n: 2, total: 30, max: 20 },
      { _id: 'b', n: 1, total: 7, max: 7 },
    ]);
    const byStatus = await c
      .aggregate([{ $group: { _id: { job: '$job', status: '$status' }, n: { $sum: 1 } } }, { $sort: { n: -1 } }, { $limit: 1 }])
      .toArray();
    expect(byStatus).toEqual([{ _id: { job: 'a', status: 'ok' }, n: 2 }]);
    const cnt = await c.aggregate([{ $match: { job: 'a' } }, { $count: 'n' }]).toArray();
    expect(cnt).toEqual([{ n: 3 }]);
  });

  it('bulkWrite of 10k docs finishes in reasonable time', async () => {
    const c = db.collection('perf');
    await c.createIndex({ job: 1, seq: 1 }, { unique: true });
    const ops = [];
    for (let i = 0; i < 10_000; i++) {
      ops.push({ insertOne: { document: { job: 'j', seq: i, payload: { url: `http://127.0.0.1/p/${i}`, n: i } } } });
    }
    const t0 = Date.now();
    const r = await c.bulkWrite(ops, { ordered: false });
    const ms = Date.now() - t0;
    expect(r.insertedCount).toBe(10_000);
    expect(await c.countDocuments({ job: 'j' })).toBe(10_000);
    const last = await c.find({ job: 'j' }).sort({ seq: -1 }).limit(1).toArray();
    expect(last[0].seq).toBe(9_999);
    expect(ms).toBeLessThan(30_000);
  });

  it('drop removes a collection and its indexes', async () => {
    const c = db.collection('todrop');
    await c.createIndex({ a: 1 }, { unique: true });
    await c.insertOne({ a: 1 });
    expect(await c.drop()).toBe(true);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((x) => x.name);
    expect(names).not.toContain('todrop');
    await c.insertOne({ a: 1 });
    await c.insertOne({ a: 1 }); // the unique index went with the collection
    expect(await c.countDocuments({ a: 1 })).toBe(2);
  });
});
