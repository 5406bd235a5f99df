import { leanHtml } from './lean-html';

describe('leanHtml', () => {
  it('drops navigation, asides, footers, site headers, noscript and link tags', () => {
    const html = '<body><header><a href="/">Logo</a></header><nav><a href="/a">A</a></nav><aside>Ad</aside><p>Text</p><footer>©</footer><noscript>Enable JS</noscript><link rel="stylesheet" href="s.css"></body>';
    expect(leanHtml(html)).toBe('<body><p>Text</p></body>');
  });

  it('keeps a header with the headline or a date, and furniture that carries structured data or breadcrumbs', () => {
    const kept = ['<header><h1>Title</h1></header>', '<header><time datetime="2019-01-01">1 Jan</time></header>', '<nav class="breadcrumbs"><a href="/">Home</a></nav>', '<footer><span itemprop="author">Jane</span></footer>'];
    for (const block of kept) expect(leanHtml(`<body>${block}</body>`)).toBe(`<body>${block}</body>`);
  });

  it('drops whitespace before block tags only: inline neighbours stay separate words', () => {
    expect(leanHtml('<div>\n  <p>a</p>\n  <p><b>one</b> <i>two</i></p>\n</div>')).toBe('<div><p>a</p><p><b>one</b> <i>two</i></p></div>');
  });

  it('leaves custom elements whose names start like furniture', () => {
    const html = '<header-nav><p>Kept text</p></header-nav><header><a>Logo</a></header>';
    expect(leanHtml(html)).toBe('<header-nav><p>Kept text</p></header-nav>');
  });
});
