/**
 * Botgroups, as the original's JobQ has them (compat-notes §1.7): a project names its
 * botgroups in its `botgroups` setting (a list of names); a botgroup has a `max_running`
 * (`POST botgroups/<name>/max_running`, null: no limit). crawlhub reads it per project:
 * a project runs at most the smallest `max_running` of its botgroups at once.
 */
export const BOTGROUP_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Largest `max_running` accepted. */
export const MAX_RUNNING_LIMIT = 100_000;

export interface BotgroupsReader {
  settings(project: number): Promise<Record<string, unknown>>;
  botgroups(names: string[]): Promise<{ name: string; maxRunning: number | null }[]>;
}

/** The names in a project's `botgroups` setting (a list, or one name). */
export function botgroupsOfSettings(settings: Record<string, unknown>): string[] {
  const value = settings.botgroups;
  const names = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return names.filter((n): n is string => typeof n === 'string' && BOTGROUP_NAME.test(n));
}

/** How many jobs the project may run at once, or null for no limit. */
export async function maxRunningOf(reader: BotgroupsReader, project: number): Promise<number | null> {
  const limits = (await reader.botgroups(botgroupsOfSettings(await reader.settings(project))))
    .map((b) => b.maxRunning)
    .filter((n): n is number => n !== null);
  return limits.length ? Math.min(...limits) : null;
}
