import { isWellFormed, MAX_STORAGE_NAME_BYTES, storageNameProblem } from './storage-name';

describe('storageNameProblem (collections, frontiers, slots)', () => {
  it.each(['my_collection', 'a b', 'é', '日本', 'x'.repeat(MAX_STORAGE_NAME_BYTES), '😀'.repeat(MAX_STORAGE_NAME_BYTES / 4 - 1)])('accepts %j', (name) => {
    expect(storageNameProblem(name, 'collection')).toBeNull();
  });

  it.each([
    ['empty', '', /must not be empty/],
    ['a "/"', 'a/b', /no '\/'/],
    ['NUL', 'a\u0000b', /control characters/],
    ['a line break', 'a\nb', /control characters/],
    ['DEL', 'a\u007fb', /control characters/],
    ['256 bytes', 'x'.repeat(MAX_STORAGE_NAME_BYTES + 1), /1 to 255 bytes/],
    ['86 characters of 3 bytes', '日'.repeat(86), /1 to 255 bytes/],
    ['a lone surrogate', 'a\ud800b', /not valid Unicode/],
  ])('refuses %s', (_what, name, message) => {
    expect(storageNameProblem(name, 'slot')).toMatch(/^Invalid slot name/);
    expect(storageNameProblem(name, 'slot')).toMatch(message);
  });

  it('names what is missing, and keeps a long name short in its message', () => {
    expect(storageNameProblem(undefined, 'frontier')).toMatch(/^Invalid frontier name: it must not be empty/);
    expect(storageNameProblem('x'.repeat(10_000), 'collection')!.length).toBeLessThan(200);
  });

  it('isWellFormed: strings with a UTF-8 form', () => {
    expect(isWellFormed('a😀')).toBe(true);
    expect(isWellFormed('\udc00')).toBe(false);
  });
});
