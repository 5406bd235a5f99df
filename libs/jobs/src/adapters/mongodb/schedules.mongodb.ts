import { Inject, Injectable } from '@nestjs/common';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoViewDatabase } from '@crawlhub/views';
import { Schedule, SchedulesView } from '../../ports/schedules.view';

interface ScheduleDoc {
  _id: string;
  project: number;
  d: string | null;
  /** Offset of the last event that changed it: older events are skipped (a deleted schedule stays deleted). */
  _o: number;
}

@Injectable()
export class SchedulesMongo implements SchedulesView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) private readonly views: MongoViewDatabase) {
    this.ready = views.defineIndexes(async (db) => {
      await db.collection<ScheduleDoc>('schedules').createIndex({ project: 1 }, { name: 'schedules_project' });
    });
  }

  private get docs() {
    return this.views.db.collection<ScheduleDoc>('schedules');
  }

  private async write(at: LogPosition, project: number, id: string, d: string | null): Promise<void> {
    await this.ready;
    await this.docs
      .updateOne({ _id: `${project}/${id}`, _o: { $lt: at.offset } }, { $set: { project, d, _o: at.offset } }, { upsert: true })
      .catch((e: { code?: number }) => {
        if (e.code !== 11000) throw e; // a newer event already wrote it
      });
  }

  put(at: LogPosition, s: Schedule): Promise<void> {
    return this.write(at, s.project, s.id, JSON.stringify(s));
  }

  remove(at: LogPosition, project: number, id: string): Promise<void> {
    return this.write(at, project, id, null);
  }

  async get(project: number, id: string): Promise<Schedule | null> {
    await this.ready;
    const doc = await this.docs.findOne({ _id: `${project}/${id}` });
    return doc?.d ? JSON.parse(doc.d) : null;
  }

  async list(project?: number): Promise<Schedule[]> {
    await this.ready;
    const docs = await this.docs.find({ ...(project === undefined ? {} : { project }), d: { $ne: null } }).sort({ project: 1, _id: 1 }).toArray();
    return docs.map((d) => JSON.parse(d.d!));
  }
}
