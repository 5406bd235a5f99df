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

  it('leaves the date a dropped short aside or footer shows in its place, as an empty marked <time>', () => {
    expect(leanHtml('<body><aside><time datetime="2021-06-06">June 6, 2021</time></aside><p>Text</p></body>')).toBe('<body><time data-furniture datetime="2021-06-06T00:00:00"></time><p>Text</p></body>');
    expect(leanHtml('<body><p>Text</p><footer class="author__meta">By Jo <span class="date">March 30, 2023 | 4 min read</span></footer></body>')).toBe(
      '<body><p>Text</p><time data-furniture datetime="2023-03-30T00:00:00"></time><meta data-furniture-author content="By Jo March 30, 2023 | 4 min read"></body>',
    );
    // A byline box's markup may be long (nested wrappers): its date stays when it names the author.
    const wrapped = (text: string) => `<aside class="side-col">${'<div class="wrapper">'.repeat(40)}${text}${'</div>'.repeat(40)}</aside>`;
    expect(leanHtml(`<body>${wrapped('<p class="date">May 25, 2023</p><p>Written By <span>Angela Holliday-Bell</span></p>')}<p>Text</p></body>`)).toBe('<body><time data-furniture datetime="2023-05-25T00:00:00"></time><p>Text</p></body>');
    expect(leanHtml(`<body>${wrapped('<p class="date">May 25, 2023</p><p>Newsletter sign-up</p>')}<p>Text</p></body>`)).toBe('<body><p>Text</p></body>');
    // A long sidebar's dates (its list of other posts) are not the article's.
    expect(leanHtml(`<body><aside>${'<li><a>Another post</a> 1 May 2024</li>'.repeat(30)}</aside><p>Text</p></body>`)).toBe('<body><p>Text</p></body>');
  });

  it('drops whitespace before block tags only: inline neighbours stay separate words', () => {
    expect(leanHtml('<div>\n  <p>a</p>\n  <p><b>one</b> <i>two</i></p>\n</div>')).toBe('<div><p>a</p><p><b>one</b> <i>two</i></p></div>');
  });

  it('passes over scripts and comments: a "<nav>" in a script does not cut the page up to the first </nav>', () => {
    const html = '<head><script>log("Inside a <nav> element")</script><!-- <aside> --></head><body><nav><a>Menu</a></nav><p>Text</p></body>';
    expect(leanHtml(html)).toBe('<head><script>log("Inside a <nav> element")</script><!-- <aside> --></head><body><p>Text</p></body>');
  });

  it('keeps a header that holds paragraphs: page builders wrap the article in one', () => {
    const header = `<header class="section_blog-post-content">${'<p>A paragraph of the post.</p>'.repeat(5)}</header>`;
    expect(leanHtml(`<body>${header}</body>`)).toBe(`<body>${header}</body>`);
    const siteHeader = `<header class="header">${'<p>An official website of the government.</p>'.repeat(5)}<form><input name="q"></form></header>`;
    expect(leanHtml(`<body>${siteHeader}</body>`)).toBe('<body></body>');
  });

  it('leaves the name a dropped aside, footer or header gives in an author element in its place, as an empty marked <meta>', () => {
    // A side column's author card (a health site's "Medically reviewed by" column).
    const aside = '<aside class="side-col"><p class="ForefrontArticle_author__U98U7"><span>Angela Holliday-Bell, MD</span></p><ul><li><a>Sleep</a></li></ul></aside>';
    expect(leanHtml(`<body><p>Text</p>${aside}</body>`)).toBe('<body><p>Text</p><meta data-furniture-author content="Angela Holliday-Bell, MD"></body>');
    expect(leanHtml('<body><footer class="meta"><div class="author"><p class="name">Ann &amp; "Bo"</p></div></footer></body>')).toBe('<body><meta data-furniture-author content="Ann &amp; &quot;Bo&quot;"></body>');
    // Furniture whose only author element holds no name-sized text leaves nothing.
    expect(leanHtml(`<body><aside><div class="author-box">${'A long biography. '.repeat(20)}</div></aside></body>`)).toBe('<body></body>');
  });

  it('leaves custom elements whose names start like furniture', () => {
    const html = '<header-nav><p>Kept text</p></header-nav><header><a>Logo</a></header>';
    expect(leanHtml(html)).toBe('<header-nav><p>Kept text</p></header-nav>');
  });

  // Modelled on a Discourse forum (users.rust-lang.org): the thread is rendered by scripts, and served to readers without them in a <noscript>.
  const post = (i: number) => `<div class="topic-body crawler-post"><span class="creator">member${i}</span><div class="post" itemprop="text"><p>Post ${i}: the resolver has picked the newest version that the declared rust-version allows since the 2024 edition, so raising it breaks nobody who builds with an older toolchain.</p></div></div>`;
  const thread = `<noscript data-path="/t/msrv/138416"><header><a href="/">The Forum</a></header><div id="main-outlet" role="main"><h1>Is changing the MSRV a breaking change?</h1>${[1, 2, 3, 4, 5, 6, 7, 8].map(post).join('')}</div><footer><nav><a href="/">Home</a></nav></footer></noscript>`;

  it("reads an app shell's page from the noscript that holds its text, its furniture dropped as anywhere", () => {
    const lean = leanHtml(`<html><head><title>MSRV</title></head><body><noscript>Please enable JavaScript.</noscript><div id="app"></div><script>boot()</script>${thread}</body></html>`);
    expect(lean).toContain('Post 8: the resolver has picked');
    expect(lean).toContain('<div><div id="main-outlet"');
    expect(lean).not.toContain('The Forum');
    expect(lean).not.toContain('Please enable JavaScript');
  });

  it('drops a long noscript when the page shows its text without scripts too', () => {
    const shown = `<article>${[1, 2, 3, 4, 5, 6, 7, 8].map(post).join('')}</article>`;
    const lean = leanHtml(`<html><body>${shown}${thread}</body></html>`);
    expect(lean).not.toContain('Is changing the MSRV');
    expect(lean.split('Post 8: the resolver').length).toBe(2);
  });
});
