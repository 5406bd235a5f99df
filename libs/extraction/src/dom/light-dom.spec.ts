import { parseLightPage } from './light-dom';
import { layoutText } from './text';

const PAGE = `<!DOCTYPE html><html><head><title>T &amp; U</title><script>var x = "<p>";</script>
  <script type="application/ld+json">{"name":"a &amp; b"}</script></head>
  <body><div id="main" class="product Card"><h1>Kettle</h1><p class="price now">&euro;&nbsp;12<br>incl. VAT</p>
  <ul><li>one<li>two</ul><img src="/k.jpg" alt="K"></div><!-- gone --></body></html>`;

describe('parseLightPage', () => {
  const document = parseLightPage(PAGE);

  it('builds head and body, decodes entities in text and keeps JSON-LD raw', () => {
    expect(document.title).toBe('T & U');
    expect(document.body?.querySelector('h1')?.textContent).toBe('Kettle');
    expect(document.querySelector('p.price')?.textContent).toBe('€\u00a012incl. VAT');
    expect(document.querySelectorAll('script')).toHaveLength(1);
    expect(document.querySelector('script')?.textContent).toBe('{"name":"a &amp; b"}');
  });

  it('closes implied end tags as browsers do (li after li)', () => {
    expect(document.querySelectorAll('li').map((li) => li.textContent)).toEqual(['one', 'two']);
  });

  it('answers the selectors the engine uses, in document order', () => {
    expect(document.querySelectorAll('[class*=price]').map((e) => e.localName)).toEqual(['p']);
    expect(document.querySelectorAll('[class*=card i]').map((e) => e.id)).toEqual(['main']);
    expect(document.querySelectorAll('div img[src]')).toHaveLength(1);
    expect(document.querySelector('#main')?.querySelector('.now')?.localName).toBe('p');
    expect(document.querySelector('img')?.closest('.product')?.id).toBe('main');
  });

  it('throws on selectors it does not support, instead of matching wrongly', () => {
    expect(() => document.querySelectorAll('ul > li')).toThrow(/unsupported selector/);
  });

  it('knows only real attributes, walks siblings and serialises what it holds', () => {
    const image = document.querySelector('img')!;
    expect(image.getAttribute('constructor')).toBeNull();
    expect(image.hasAttribute('alt')).toBe(true);
    expect(document.querySelector('h1')?.nextElementSibling?.localName).toBe('p');
    expect(document.querySelector('ul')?.outerHTML).toBe('<ul><li>one</li><li>two</li></ul>');
    expect(layoutText(document.body!)).toBe('Kettle\n€ 12\nincl. VAT\none\ntwo');
  });

  it('decodes attribute values by attribute rules, once, and keeps set values as given', () => {
    const page = parseLightPage('<a href="/p?a=1&amp;b=2&copy=3" title="&quot;R&amp;D&quot; &euro;">x</a><textarea>&lt;b&gt;</textarea>');
    const link = page.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('/p?a=1&b=2&copy=3');
    expect(link.getAttribute('title')).toBe('"R&D" €');
    link.setAttribute('title', 'A &amp; B');
    expect(link.getAttribute('title')).toBe('A &amp; B');
    expect(link.outerHTML).toBe('<a href="/p?a=1&amp;b=2&amp;copy=3" title="A &amp;amp; B">x</a>');
  });

  it('drops the attributes no extractor reads but keeps lazy-image sources', () => {
    const image = parseLightPage('<img src="a.gif" data-src="a.jpg" data-zoom-image="a-big.jpg" data-track=\'{"x":1}\' style="width:1px" onload="f()">').querySelector('img')!;
    expect(image.outerHTML).toBe('<img src="a.gif" data-src="a.jpg" data-zoom-image="a-big.jpg">');
  });

  it('removes elements and replaces inner HTML', () => {
    const page = parseLightPage('<div id="a"><b>x</b><i>y</i></div>');
    page.querySelector('b')!.remove();
    expect(page.querySelector('#a')?.innerHTML).toBe('<i>y</i>');
    page.querySelector('#a')!.innerHTML = '<em>z</em>';
    expect(page.querySelector('#a em')?.textContent).toBe('z');
  });
});

describe('parseLightPage on thousands of unclosed tags', () => {
  it('nests at most 512 deep, as browsers do: deeper elements and their text stay, as children of the deepest', () => {
    const document = parseLightPage(`<body>${'<div>'.repeat(20_000)}<p>deep text</p>${'</div>'.repeat(20_000)}<p id="after">after</p></body>`);
    let depth = 0;
    for (let e = document.querySelector('p'); e?.parentElement; e = e.parentElement) depth++;
    expect(depth).toBeLessThanOrEqual(514); // the divs, body and html
    expect(document.querySelectorAll('div')).toHaveLength(20_000);
    expect(document.querySelector('p')?.textContent).toBe('deep text');
    expect(document.querySelector('#after')?.parentElement?.localName).toBe('body');
  });
});

describe('parseLightPage headings, as a browser closes them', () => {
  const headings = (html: string) => parseLightPage(html).querySelectorAll('h1, h2, h3').map((h) => `${h.localName}: ${h.textContent}`);

  it('closes a heading at an end tag of another level', () => {
    expect(headings('<h1>Backpacking Checklist</h2><p>January 1, 2025</p><h2>Packing</h2>')).toEqual(['h1: Backpacking Checklist', 'h2: Packing']);
  });

  it('closes an open heading where the next heading starts', () => {
    expect(headings('<h1 class="title">Top Strategies<div class="divider"></div><h3>Posted on by infuy</h3></div>')).toEqual([
      'h1: Top Strategies',
      'h3: Posted on by infuy',
    ]);
  });

  it('leaves well-formed headings and their inline markup alone', () => {
    expect(headings('<h1><span>A <b>bold</b> title</span></h1><h2>Part</h2><p>text</p>')).toEqual(['h1: A bold title', 'h2: Part']);
  });
});
