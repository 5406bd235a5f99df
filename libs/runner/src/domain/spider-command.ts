import { SpiderCommandSpec, spiderNameProblem } from '@crawlhub/contracts';

/** A registration the runner can use, as the spider-commands view keeps it. */
export interface RegisteredSpider extends SpiderCommandSpec {
  project: number;
  /** When it was registered (its event's time), ms. */
  registeredAt: number;
  /** Who registered it (`key:<id>`, `system:cli`...). */
  registeredBy: string;
}

export class SpiderCommandError extends Error {}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_ARG = 8192;
const MAX_ARGS = 256;
const MAX_ENV = 256;

function isAbsolute(path: string): boolean {
  return path.startsWith('/');
}

/**
 * Checks one registration. `command` is argv (never run through a shell): a non-empty
 * list of strings; `cwd` an absolute path or null; `env` names are shell-style
 * identifiers with string values. No NUL anywhere (it cannot cross exec).
 */
export function checkSpiderCommand(input: { spider: unknown; command: unknown; cwd?: unknown; env?: unknown }): SpiderCommandSpec {
  const { spider, command } = input;
  const nameProblem = spiderNameProblem(spider);
  if (nameProblem) throw new SpiderCommandError(nameProblem);
  const where = `spider ${JSON.stringify(spider)}`;
  if (!Array.isArray(command) || command.length === 0 || command.length > MAX_ARGS) {
    throw new SpiderCommandError(`${where}: command must be a JSON array of 1 to ${MAX_ARGS} strings (argv, no shell)`);
  }
  for (const arg of command) {
    if (typeof arg !== 'string') throw new SpiderCommandError(`${where}: every element of command must be a string`);
    if (arg.includes('\u0000') || arg.length > MAX_ARG) throw new SpiderCommandError(`${where}: command arguments must be at most ${MAX_ARG} characters, without NUL`);
  }
  if (command[0] === '') throw new SpiderCommandError(`${where}: command[0] (the program) must not be empty`);
  let cwd: string | null = null;
  if (input.cwd !== undefined && input.cwd !== null && input.cwd !== '') {
    if (typeof input.cwd !== 'string' || !isAbsolute(input.cwd) || input.cwd.includes('\u0000')) {
      throw new SpiderCommandError(`${where}: cwd must be an absolute directory path`);
    }
    cwd = input.cwd;
  }
  const env: Record<string, string> = {};
  if (input.env !== undefined && input.env !== null) {
    if (typeof input.env !== 'object' || Array.isArray(input.env)) throw new SpiderCommandError(`${where}: env must be a JSON object of strings`);
    const entries = Object.entries(input.env as Record<string, unknown>);
    if (entries.length > MAX_ENV) throw new SpiderCommandError(`${where}: env has more than ${MAX_ENV} variables`);
    for (const [name, value] of entries) {
      if (!ENV_NAME.test(name)) throw new SpiderCommandError(`${where}: env name ${JSON.stringify(name)} is not a valid variable name`);
      if (typeof value !== 'string' || value.includes('\u0000') || value.length > MAX_ARG) {
        throw new SpiderCommandError(`${where}: env ${name} must be a string of at most ${MAX_ARG} characters, without NUL`);
      }
      env[name] = value;
    }
  }
  return { spider: spider as string, command: [...command] as string[], cwd, env };
}

/**
 * A spiders file (`crawlhub spiders register --file`):
 * `{"spiders": {"<name>": {"command": [...], "cwd": "...", "env": {...}}, ...}}`.
 * A relative `cwd` is resolved against `baseDir` (the file's directory), which is also
 * the default `cwd`.
 */
export function parseSpidersFile(text: string, baseDir: string, resolvePath: (base: string, path: string) => string): SpiderCommandSpec[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new SpiderCommandError(`the spiders file is not valid JSON (${(e as Error).message})`);
  }
  const spiders = (doc as { spiders?: unknown } | null)?.spiders;
  if (spiders === null || typeof spiders !== 'object' || Array.isArray(spiders)) {
    throw new SpiderCommandError('the spiders file must be a JSON object {"spiders": {"<name>": {"command": [...]}}}');
  }
  const out: SpiderCommandSpec[] = [];
  for (const [spider, entry] of Object.entries(spiders as Record<string, unknown>)) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new SpiderCommandError(`spider ${JSON.stringify(spider)}: expected an object with "command"`);
    const e = entry as Record<string, unknown>;
    const cwd = typeof e.cwd === 'string' && e.cwd !== '' ? resolvePath(baseDir, e.cwd) : e.cwd === undefined || e.cwd === null || e.cwd === '' ? baseDir : e.cwd;
    out.push(checkSpiderCommand({ spider, command: e.command, cwd, env: e.env }));
  }
  if (out.length === 0) throw new SpiderCommandError('the spiders file registers no spider');
  return out;
}
