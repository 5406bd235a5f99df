import { splitNames } from './authors';

describe('splitNames', () => {
  it('splits a byline on commas, ampersands and "and" in several languages, without "By"', () => {
    expect(splitNames('By Jane Doe and John Roe, Reuters')).toEqual(['Jane Doe', 'John Roe', 'Reuters']);
    expect(splitNames('Ana Silva e João Souza')).toEqual(['Ana Silva', 'João Souza']);
    expect(splitNames('Tom & Jerry')).toEqual(['Tom', 'Jerry']);
  });

  it('keeps middle initials inside a name', () => {
    expect(splitNames('Sarah E. Needleman')).toEqual(['Sarah E. Needleman']);
    expect(splitNames('By Juan Y Pérez')).toEqual(['Juan Y Pérez']);
  });

  it('refuses links and sentences', () => {
    expect(splitNames('https://example.com/authors/jane')).toEqual([]);
    expect(splitNames('This story was written with the help of many people in our newsroom')).toEqual([]);
  });
});
