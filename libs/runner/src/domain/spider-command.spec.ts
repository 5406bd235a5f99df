import { checkSpiderCommand, parseSpidersFile, SpiderCommandError } from './spider-command';

const resolve = (base: string, p: string) => (p.startsWith('/') ? p : `${base}/${p}`);

describe('spider commands', () => {
  it('accepts argv, an absolute cwd and string env', () => {
    expect(checkSpiderCommand({ spider: 's', command: ['node', 'a.js'], cwd: '/srv', env: { A_1: 'x' } })).toEqual({ spider: 's', command: ['node', 'a.js'], cwd: '/srv', env: { A_1: 'x' } });
    expect(checkSpiderCommand({ spider: 's', command: ['x'] })).toEqual({ spider: 's', command: ['x'], cwd: null, env: {} });
  });

  it.each([
    [{ spider: '', command: ['x'] }, 'a spider name is required'],
    [{ spider: 'a/b', command: ['x'] }, 'Invalid spider name "a/b"'],
    [{ spider: 'x'.repeat(257), command: ['x'] }, 'Invalid spider name'],
    [{ spider: 's', command: 'node a.js' }, 'command must be a JSON array'],
    [{ spider: 's', command: [] }, 'command must be a JSON array'],
    [{ spider: 's', command: ['node', 1] }, 'every element of command must be a string'],
    [{ spider: 's', command: [''] }, 'must not be empty'],
    [{ spider: 's', command: ['a\u0000b'] }, 'without NUL'],
    [{ spider: 's', command: ['x'], cwd: 'relative/dir' }, 'cwd must be an absolute directory path'],
    [{ spider: 's', command: ['x'], env: ['A'] }, 'env must be a JSON object'],
    [{ spider: 's', command: ['x'], env: { 'BAD-NAME': 'v' } }, 'is not a valid variable name'],
    [{ spider: 's', command: ['x'], env: { A: 1 } }, 'env A must be a string'],
  ])('refuses %j', (input, message) => {
    expect(() => checkSpiderCommand(input)).toThrow(SpiderCommandError);
    expect(() => checkSpiderCommand(input)).toThrow(message);
  });

  it('reads a spiders file, resolving cwd against its folder (also the default)', () => {
    const text = JSON.stringify({ spiders: { a: { command: ['node', 'a.js'] }, b: { command: ['b'], cwd: 'sub', env: { X: '1' } }, c: { command: ['c'], cwd: '/abs' } } });
    expect(parseSpidersFile(text, '/proj', resolve)).toEqual([
      { spider: 'a', command: ['node', 'a.js'], cwd: '/proj', env: {} },
      { spider: 'b', command: ['b'], cwd: '/proj/sub', env: { X: '1' } },
      { spider: 'c', command: ['c'], cwd: '/abs', env: {} },
    ]);
    expect(() => parseSpidersFile('{bad', '/p', resolve)).toThrow('not valid JSON');
    expect(() => parseSpidersFile('{"a": {}}', '/p', resolve)).toThrow('{"spiders"');
    expect(() => parseSpidersFile('{"spiders": {}}', '/p', resolve)).toThrow('registers no spider');
    expect(() => parseSpidersFile('{"spiders": {"a": {"command": "x"}}}', '/p', resolve)).toThrow('command must be a JSON array');
  });
});
