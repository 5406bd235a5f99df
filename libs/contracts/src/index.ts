export * from './envelope';
export * from './topics/job-data/job-data.topic';
export * from './topics/job-metadata/job-metadata.topic';
export * from './topics/access-keys/access-keys.topic';
export * from './topics/comments/comments.topic';
export * from './topics/activity/activity.topic';
export * from './topics/jobs/jobs.topic';
export * from './topics/schedules/schedules.topic';
