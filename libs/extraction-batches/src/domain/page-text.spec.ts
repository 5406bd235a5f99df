import { hasVisibleContent, pageText } from './page-text';

describe('pageText', () => {
  it('decodes with the charset of Content-Type', () => {
    expect(pageText(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/html; charset=ISO-8859-1')).toBe('café');
  });

  it('decodes with the charset of the page’s <meta> when the header names none', () => {
    const page = Buffer.concat([Buffer.from('<html><head><meta charset="windows-1252"></head><body>'), Buffer.from([0x80]), Buffer.from('</body></html>')]);
    expect(pageText(page, 'text/html')).toContain('€');
  });

  it('reads UTF-8 when nothing is declared or the charset is unknown', () => {
    expect(pageText(Buffer.from('<p>naïve</p>'), undefined)).toBe('<p>naïve</p>');
    expect(pageText(Buffer.from('<p>naïve</p>'), 'text/html; charset=x-no-such-charset')).toBe('<p>naïve</p>');
  });

  it('is null for what is not a page (an image, a PDF)', () => {
    expect(pageText(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png')).toBeNull();
    expect(pageText(Buffer.from('%PDF-1.4'), 'application/pdf')).toBeNull();
  });
});

describe('hasVisibleContent', () => {
  it('sees text and images, not scripts, styles, comments or the head', () => {
    expect(hasVisibleContent('<html><head><title>T</title></head><body><p>Hello</p></body></html>')).toBe(true);
    expect(hasVisibleContent('<body><img src="a.png"></body>')).toBe(true);
    expect(hasVisibleContent('<html><head><title>Only a title</title><style>p{}</style></head><body><script>var x = 1;</script><!-- nothing --> &nbsp; </body></html>')).toBe(false);
    expect(hasVisibleContent('')).toBe(false);
    expect(hasVisibleContent('just some text')).toBe(true);
    expect(hasVisibleContent('<html><body><div><span>&nbsp;</span></div><p>late text</p></body></html>')).toBe(true);
    // Spaces in any spelling are no text; an entity that is a character is.
    expect(hasVisibleContent('<body><p>&#xA0;&NonBreakingSpace;&ensp;&#32;</p></body>')).toBe(false);
    expect(hasVisibleContent('<body><p>&copy;</p></body>')).toBe(true);
  });

  it("sees an app shell's page in its noscript, as a reader without scripts does", () => {
    const shell = '<html><head><title>Thread</title></head><body><div id="app"></div><script>boot()</script>';
    expect(hasVisibleContent(`${shell}<noscript data-path="/t/1"><div><p>The first post</p></div></noscript></body></html>`)).toBe(true);
    expect(hasVisibleContent(`${shell}<noscript><img src="pixel.gif"></noscript></body></html>`)).toBe(true);
    expect(hasVisibleContent(`${shell}</body></html>`)).toBe(false);
  });
});
