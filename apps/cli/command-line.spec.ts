import { CliCommand, CliUsageError, parseCommandLine } from './command-line';

const COMMANDS: CliCommand[] = [
  { words: ['keys', 'create'], usage: 'crawlhub keys create --project N [--label TEXT]', options: { project: { type: 'string', multiple: true }, label: { type: 'string' }, admin: { type: 'boolean' } } },
  { words: ['keys', 'grant'], usage: 'crawlhub keys grant <key-id> CAP', positionals: ['<key-id>', 'CAP'] },
  { words: ['replay'], usage: 'crawlhub replay' },
];

function refusal(argv: string[]): CliUsageError {
  try {
    parseCommandLine(COMMANDS, argv);
  } catch (e) {
    if (e instanceof CliUsageError) return e;
    throw e;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

describe('the command line (parseArgs, strict)', () => {
  it('finds the command and reads its options in both spellings', () => {
    const parsed = parseCommandLine(COMMANDS, ['keys', 'create', '--project', '3', '--project=4', '--label', 'ci', '--admin']);
    expect(parsed.command.words).toEqual(['keys', 'create']);
    expect(parsed.values).toEqual({ project: ['3', '4'], label: 'ci', admin: true });
    expect(parseCommandLine(COMMANDS, ['keys', 'grant', 'key-000000000000', 'browser']).positionals).toEqual(['key-000000000000', 'browser']);
  });

  it('refuses a misspelt option, naming the one it meant, with the command’s usage', () => {
    const e = refusal(['keys', 'create', '--project', '3', '--lable', 'ci']);
    expect(e.message).toBe('unknown option --lable (did you mean --label?)');
    expect(e.usage).toBe('crawlhub keys create --project N [--label TEXT]');
    expect(refusal(['keys', 'create', '--zzz']).message).toBe('unknown option --zzz');
    expect(refusal(['replay', '--project', '3']).message).toBe('unknown option --project');
  });

  it('refuses a missing value, a flag given a value, and positional arguments too many or too few', () => {
    expect(refusal(['keys', 'create', '--label']).message).toMatch(/^option '--label <value>' argument missing/);
    expect(refusal(['keys', 'create', '--admin=yes']).message).toMatch(/^option '--admin' does not take an argument/);
    expect(refusal(['keys', 'grant', 'key-000000000000']).message).toBe('missing CAP');
    expect(refusal(['keys', 'grant', 'key-000000000000', 'browser', 'extra']).message).toBe('unexpected argument "extra"');
    expect(refusal(['replay', 'now']).message).toBe('unexpected argument "now"');
  });

  it('answers --help of one command, and refuses unknown commands', () => {
    expect(parseCommandLine(COMMANDS, ['keys', 'grant', '--help'])).toMatchObject({ help: true, command: { words: ['keys', 'grant'] } });
    const unknown = refusal(['keys', 'delete']);
    expect(unknown.message).toBe('unknown command: keys delete');
    expect(unknown.usage).toBeUndefined();
  });
});
