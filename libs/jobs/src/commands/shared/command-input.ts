import { z } from 'zod';
import { JOB_STATES, JobState, spiderNameProblem } from '@crawlhub/contracts';
import { ApiError } from '@crawlhub/http';
import { platformFieldProblem } from '@crawlhub/storage';

/**
 * The checks of the jobs use cases' commands. A command checks its input when it is made,
 * so every caller (the HTTP controllers, the runner, the scheduler, the deploys) gets the
 * same refusal, worded as the API words it: the first problem, in the order of the fields,
 * as an ApiError 400 (each API renders it in its own style).
 */
export function checked<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ApiError(400, result.error.issues[0].message);
  return result.data;
}

/** A refusal with the API's own words (zod's `custom` issue). */
function refuse(ctx: z.RefinementCtx, message: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** An integer (a JSON number without fraction; `1.0` is the number 1) from min to max; `fallback` when absent. */
export const integerIn = (name: string, fallback: number, min: number, max: number) =>
  z.unknown().optional().transform((value, ctx): number => {
    const n = value ?? fallback;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= min && n <= max ? n : refuse(ctx, `Invalid ${name}: ${JSON.stringify(n)} (an integer from ${min} to ${max})`);
  });

/** A list of strings (`tags`, `spiders`): [] when absent; a lone string or anything else is refused. */
export const stringList = (name: string) =>
  z.unknown().optional().transform((value, ctx): string[] => {
    if (value === undefined) return [];
    return Array.isArray(value) && value.every((x) => typeof x === 'string') ? value : refuse(ctx, `Invalid ${name}: ${JSON.stringify(value).slice(0, 100)} (a list of strings)`);
  });

/** A spider name to create or schedule (the rule of every path: spiderNameProblem). */
export const spiderName = z.unknown().optional().transform((value, ctx): string => {
  const problem = spiderNameProblem(value);
  return problem ? refuse(ctx, problem) : (value as string);
});

/** The problem with a job state's name, or null. */
export function jobStateProblem(state: string): string | null {
  return (JOB_STATES as readonly string[]).includes(state) ? null : `Invalid state: ${JSON.stringify(state)} (one of ${JOB_STATES.join(', ')})`;
}

/** A job state (`pending`, `running`, `finished`, `deleted`); `fallback` when absent. */
export const jobState = <F extends JobState | null>(fallback: F) =>
  z.unknown().optional().transform((value, ctx): JobState | F => {
    if (value === undefined) return fallback;
    const problem = jobStateProblem(String(value));
    return problem ? refuse(ctx, problem) : (String(value) as JobState);
  });

/** An object (a JSON object: not null, not a list); `message` when it is anything else. */
export const objectField = (message: string) =>
  z.unknown().optional().transform((value, ctx): Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : refuse(ctx, message),
  );

/** Metadata fields a client sends (its control parameters taken out): refused if one is the platform's. */
export const clientFields = z.record(z.string(), z.unknown()).transform((fields, ctx) => {
  const problem = platformFieldProblem(Object.keys(fields));
  return problem ? refuse(ctx, problem) : fields;
});

const JOB_KEY = /^\d{1,15}\/\d{1,15}\/\d{1,15}$/;

/** The problem with a job key of `project` (`<project>/<spider>/<job>`), or null. */
export function jobKeyProblem(value: unknown, project: number): string | null {
  return typeof value === 'string' && JOB_KEY.test(value) && Number(value.split('/')[0]) === project
    ? null
    : `Invalid job key: ${JSON.stringify(value)} (expected ${project}/<spider>/<job>)`;
}

/** A job key of `project`. */
export const jobKeyOf = (project: number) =>
  z.unknown().optional().transform((value, ctx): string => {
    const problem = jobKeyProblem(value, project);
    return problem ? refuse(ctx, problem) : (value as string);
  });
