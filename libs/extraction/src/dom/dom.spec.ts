import { parseLightPage } from './light-dom';
import { withoutNonContent } from './pre-parse';
import { documentBaseUrl, resolveUrl } from './url';
import { layoutText, normalizeSpace, shortTextOf, textOf, textsBefore } from './text';

describe('dom helpers', () => {
  it('parses a fragment as a whole document', () => {
    const document = parseLightPage('<p class="x">Hello <b>you</b></p>');
    expect(textOf(document.querySelector('p.x'))).toBe('Hello you');
  });

  it('resolves links against <base href> and refuses non-web schemes', () => {
    const document = parseLightPage('<html><head><base href="/static/"></head><body></body></html>');
    const base = documentBaseUrl(document, 'https://a.example/p/1');
    expect(resolveUrl('i.png', base)).toBe('https://a.example/static/i.png');
    expect(resolveUrl('javascript:void(0)', base)).toBeUndefined();
    expect(resolveUrl('  ', base)).toBeUndefined();
  });

  it('collapses no-break and ordinary whitespace', () => {
    expect(normalizeSpace(' 1\u00a0299,00\n €  ')).toBe('1 299,00 €');
  });
});

describe('parseLightPage', () => {
  it('drops scripts, styles, svg and comments but keeps JSON-LD (comments inside it too)', () => {
    const html = '<html><head><script>var price = 1;</script><style>p{}</style><script type="application/ld+json"><!-- {"@type":"Product"} --></script></head><body><!-- hidden --><svg><text>icon</text></svg><p>shown</p></body></html>';
    const document = parseLightPage(html);
    expect(textOf(document.querySelector('body'))).toBe('shown');
    expect(document.querySelectorAll('script')).toHaveLength(1);
    expect(document.querySelector('script')!.textContent).toContain('"@type":"Product"');
  });
});

describe('layoutText', () => {
  it('puts each block on a line of its own and keeps inline text and table cells together', () => {
    const document = parseLightPage('<div><p>First\nparagraph</p><ul><li><b>ASIN\n:</b>\n<span>B01</span></li></ul><table><tr><th>Weight</th><td>2 kg</td></tr></table></div>');
    expect(layoutText(document.querySelector('div')!)).toBe('First paragraph\nASIN : B01\nWeight 2 kg');
  });
});

describe('shortTextOf', () => {
  it('gives the collapsed text of a short element however much indentation it has, and nothing for a long one', () => {
    const document = parseLightPage(`<div id="a">${' '.repeat(500)}<b>£49.00</b>${'\n   '.repeat(100)}</div><div id="b">${'word '.repeat(50)}</div>`);
    expect(shortTextOf(document.querySelector('#a')!, 40)).toBe('£49.00');
    expect(shortTextOf(document.querySelector('#b')!, 40)).toBeUndefined();
  });
});

describe('textsBefore', () => {
  it('gives the texts before an element, nearest first, through its ancestors and their earlier siblings', () => {
    const document = parseLightPage('<body><p>far</p><div><span>News</span> <b>12 March</b></div><header><em>kicker</em><h1>Title</h1></header></body>');
    expect(textsBefore(document.querySelector('h1')!, 3)).toEqual(['kicker', '12 March', 'News']);
  });
});

describe('withoutNonContent', () => {
  it('drops inline styles, event handlers and unread data-* but keeps a style that hides and lazy-image sources', () => {
    const lean = withoutNonContent('<p style="color:red" onclick="x()" data-track="1">a</p><div style="display: none">b</div><img data-src="i.png">');
    expect(lean).toBe('<p>a</p><div style="display: none">b</div><img data-src="i.png">');
  });
});
