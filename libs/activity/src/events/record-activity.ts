import { LoggedEvent } from '@crawlhub/eventlog';
import { ActivityView } from '../ports/activity.view';

/**
 * The id of the `index`-th activity message carried by event `eventId`. `tag` tells apart
 * several groups of messages recorded from one event (leave it empty otherwise).
 */
export function activityMessageId(eventId: string, index: number, tag = ''): string {
  return `${eventId}${tag ? `/${tag}` : ''}:${index}`;
}

/**
 * Records platform messages in a project's activity log, from another context's
 * projection, as part of applying one of its own events. The messages get the event's
 * time (`occurredAt`, what `meta=_ts` shows) and ids derived from the event's id, so
 * re-applying the event (replay, redelivery, a MongoDB crash before the checkpoint)
 * stores nothing twice, and a replay rebuilds the same log.
 *
 * How a context uses it (the jobs context, say):
 *
 *   // jobs.module.ts: import ActivityViewsModule, which provides ACTIVITY_VIEW
 *   @Module({ imports: [ActivityViewsModule], providers: [JobsProjection, ...] })
 *
 *   // events/jobs.projection.ts
 *   constructor(@Inject(ACTIVITY_VIEW) private readonly activity: ActivityView) {}
 *   async apply(e: LoggedEvent) {
 *     ...update the jobs views...
 *     if (e.event.type === JOB_SCHEDULED) {
 *       await recordActivity(this.activity, e, d.project, [{ event: 'job:scheduled', job: d.job, user: d.user }]);
 *     }
 *   }
 *
 * Record from the projection (never from a command handler): the message then lands in
 * the same transaction as the rest of the event's view changes on SQLite, and the views
 * alone decide what is in them. Pass every message of one event for one project in one
 * call; call it more than once per event only with distinct `tag`s.
 */
export function recordActivity(
  view: ActivityView,
  e: LoggedEvent,
  project: number,
  messages: readonly Record<string, unknown>[],
  tag = '',
): Promise<void> {
  return view.record(
    e,
    project,
    messages.map((m, i) => ({ id: activityMessageId(e.event.id, i, tag), json: JSON.stringify(m), ts: e.event.occurredAt })),
  );
}
