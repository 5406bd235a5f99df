import { platformFieldProblem } from './job-metadata-fields';

describe('platformFieldProblem', () => {
  it('names the first platform field a client tries to write', () => {
    expect(platformFieldProblem(['owner', '_key', 'project'])).toBe('Field "_key" is set by the platform and cannot be written');
    for (const f of ['auth', 'state', 'project', 'spider', 'pending_time', 'finished_time', 'scheduled_by', 'cancelled_by']) {
      expect(platformFieldProblem([f])).toContain(`"${f}"`);
    }
  });

  it('lets every other field through', () => {
    expect(platformFieldProblem(['owner', 'close_reason', 'tags', 'job_settings_note'])).toBeNull();
    expect(platformFieldProblem([])).toBeNull();
  });
});
