import { parsePage } from './parse-page';
import { documentBaseUrl, resolveUrl } from './url';
import { layoutText, normalizeSpace, textOf } from './text';

describe('dom helpers', () => {
  it('parses a fragment as a whole document', () => {
    const document = parsePage('<p class="x">Hello <b>you</b></p>');
    expect(textOf(document.querySelector('p.x'))).toBe('Hello you');
  });

  it('resolves links against <base href> and refuses non-web schemes', () => {
    const document = parsePage('<html><head><base href="/static/"></head><body></body></html>');
    const base = documentBaseUrl(document, 'https://a.example/p/1');
    expect(resolveUrl('i.png', base)).toBe('https://a.example/static/i.png');
    expect(resolveUrl('javascript:void(0)', base)).toBeUndefined();
    expect(resolveUrl('  ', base)).toBeUndefined();
  });

  it('collapses no-break and ordinary whitespace', () => {
    expect(normalizeSpace(' 1\u00a0299,00\n €  ')).toBe('1 299,00 €');
  });
});

describe('parsePage', () => {
  it('drops scripts, styles, svg and comments but keeps JSON-LD (comments inside it too)', () => {
    const html = '<html><head><script>var price = 1;</script><style>p{}</style><script type="application/ld+json"><!-- {"@type":"Product"} --></script></head><body><!-- hidden --><svg><text>icon</text></svg><p>shown</p></body></html>';
    const document = parsePage(html);
    expect(textOf(document.querySelector('body'))).toBe('shown');
    expect(document.querySelectorAll('script')).toHaveLength(1);
    expect(document.querySelector('script')!.textContent).toContain('"@type":"Product"');
  });
});

describe('layoutText', () => {
  it('puts each block on a line of its own and keeps inline text and table cells together', () => {
    const document = parsePage('<div><p>First\nparagraph</p><ul><li><b>ASIN\n:</b>\n<span>B01</span></li></ul><table><tr><th>Weight</th><td>2 kg</td></tr></table></div>');
    expect(layoutText(document.querySelector('div')!)).toBe('First paragraph\nASIN : B01\nWeight 2 kg');
  });
});
