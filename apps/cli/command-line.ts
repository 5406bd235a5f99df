import { parseArgs, ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** One command of the CLI: the words that name it, its usage lines, its options and positional arguments. */
export interface CliCommand {
  words: string[];
  /** Its lines in the help: the invocation first, then what it does. */
  usage: string;
  options?: Options;
  /** Names of its positional arguments, in order; each is required. */
  positionals?: string[];
}

export interface ParsedCommandLine<C extends CliCommand> {
  command: C;
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  /** `--help` after the command: print its usage, run nothing. */
  help: boolean;
}

/** A command line the CLI cannot run: the message, and the usage to print with it (the command's, or the whole help). */
export class CliUsageError extends Error {
  constructor(message: string, readonly usage?: string) {
    super(message);
  }
}

/**
 * Finds the command named by the first words of `argv` (the longest match) and parses the
 * rest with node's parseArgs in strict mode: an option the command does not take, a value
 * missing after an option, or a positional argument too many or too few is a CliUsageError
 * that names the problem (and the closest option for a typo) with the command's usage.
 */
export function parseCommandLine<C extends CliCommand>(commands: readonly C[], argv: string[]): ParsedCommandLine<C> {
  const command = [...commands].sort((a, b) => b.words.length - a.words.length).find((c) => c.words.every((w, i) => argv[i] === w));
  if (command === undefined) throw new CliUsageError(`unknown command: ${argv.join(' ')}`);
  const options: Options = { ...command.options, help: { type: 'boolean', short: 'h' } };
  let parsed;
  try {
    parsed = parseArgs({ args: argv.slice(command.words.length), options, strict: true, allowPositionals: true });
  } catch (e) {
    throw new CliUsageError(problemOf(e as Error & { code?: string }, Object.keys(options)), command.usage);
  }
  const { values, positionals } = parsed;
  const help = values.help === true;
  delete values.help;
  const names = command.positionals ?? [];
  if (!help && positionals.length > names.length) throw new CliUsageError(`unexpected argument ${JSON.stringify(positionals[names.length])}`, command.usage);
  if (!help && positionals.length < names.length) throw new CliUsageError(`missing ${names[positionals.length]}`, command.usage);
  return { command, values, positionals, help };
}

function problemOf(e: Error & { code?: string }, optionNames: string[]): string {
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = /'(-[^']*)'/.exec(e.message)?.[1] ?? '';
    const name = given.replace(/^-+/, '').split('=')[0];
    const closest = optionNames.filter((o) => editDistance(o, name) <= 2).sort((a, b) => editDistance(a, name) - editDistance(b, name))[0];
    return `unknown option ${given}${closest ? ` (did you mean --${closest}?)` : ''}`;
  }
  // Node's own words for a value missing after an option or given to a flag.
  return e.message.split('. ')[0].replace(/^Option /, 'option ');
}

/** Levenshtein distance, for suggesting the option a typo meant. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}
