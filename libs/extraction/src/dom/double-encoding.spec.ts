import { withDoubleEncodingUndone } from './double-encoding';
import { parseLightPage } from './light-dom';

/** What a site shows when it UTF-8-encodes its text twice: each byte of the first encoding as its own character. */
function encodedTwice(text: string, byteToChar: (byte: number) => string): string {
  return [...Buffer.from(text, 'utf8')].map(byteToChar).join('');
}
const asLatin1 = (byte: number) => String.fromCharCode(byte);
const asWindows1252 = (byte: number) => new TextDecoder('windows-1252').decode(Uint8Array.of(byte));

describe('withDoubleEncodingUndone', () => {
  it.each([
    ['Latin-1', asLatin1],
    ['Windows-1252', asWindows1252],
  ])('gives back the text a site encoded twice, read as %s', (_, byteToChar) => {
    const text = 'A DIY Investor’s Guide — café, naïve, 東京, 😀 and “quotes”';
    const mangled = encodedTwice(text, byteToChar);
    expect(mangled).not.toBe(text);
    expect(withDoubleEncodingUndone(mangled)).toBe(text);
  });

  it('leaves ordinary Latin-1 letters and text that only looks close alone', () => {
    for (const text of ['SÃO PAULO', 'Ãgua', 'naïve café à la carte', 'Â', 'â€', 'price: 5 € · 10 °C', 'à¡ is not a word']) {
      expect(withDoubleEncodingUndone(text)).toBe(text);
    }
  });

  it('is applied before a page is read, to its text and its attributes', () => {
    const page = parseLightPage(`<html><head><meta property="og:title" content="${encodedTwice('It’s', asLatin1)}"></head><body><h1>${encodedTwice('Investor’s Guide', asWindows1252)}</h1></body></html>`);
    expect(page.querySelector('h1')!.textContent).toBe('Investor’s Guide');
    expect(page.querySelector('meta')!.getAttribute('content')).toBe('It’s');
  });
});
