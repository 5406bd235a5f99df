import { extractArticle, extractArticleWithEvidence } from './extract-article';

const PROSE = (topic: string) =>
  `${topic} grew steadily through the year, according to people who follow it closely, and the figures published on Monday confirm the trend, which analysts had expected since spring.`;

const articlePage = ({ head = '', article = '' } = {}) => `<!DOCTYPE html><html lang="en-GB"><head><title>Rivers rise | Daily Planet</title>${head}</head>
<body>
  <header class="site-header"><nav><a href="/">Home</a> <a href="/world">World</a> <a href="/sport">Sport</a></nav></header>
  <main>
    <ol class="breadcrumb"><li><a href="/">Home</a></li><li><a href="/world">World</a></li></ol>
    <article>
      <h1>Rivers rise after a week of rain</h1>
      <div class="byline">By Jane Doe and John Roe</div>
      <time datetime="2019-11-19T08:21:00+0000">Nov. 19, 2019</time>
      <div class="article-body">
        <p class="share-text">Sharing is caring!</p>
        <div class="posted-on">Published Nov 18, 2019 at 4:07 PM | Updated 5:36 PM</div>
        <p>${PROSE('Rainfall')}</p>
        <ul><li><a href="/moon">Moon rush: lander plans</a></li><li><a href="/landers">Where the landers will land</a></li></ul>
        <figure><img src="/img/river.jpg" alt="The river"><figcaption>The river at noon (Photo: Agency)</figcaption></figure>
        <p>${PROSE('The river level')}</p>
        <h2>What comes next</h2>
        <ul><li>Sandbags for every street</li><li>A new pump at the bridge</li></ul>
        <p>${PROSE('Flood defence spending')}</p>
        <div class="share-tools"><a href="https://facebook.com/share">Share on Facebook</a> <a href="https://twitter.com/share">Tweet</a></div>
        <p>${PROSE('Insurance claims')}</p>
        <p>Engineers studied deep <a class="textTag" href="/tags/space">space travel</a> for the report, they said on Monday.</p>
        <div class="recipe-card has-image"><ul><li>Eight sandbags, filled and tied</li></ul></div>
        <video src="/media/flood.mp4"></video>
        ${article}
      </div>
      <div class="related-stories"><h3><a href="/a">Another story</a></h3><h3><a href="/b">Yet another</a></h3></div>
    </article>
    <section class="comments"><p>${PROSE('Reader comment: my street')}</p></section>
  </main>
  <footer>© Daily Planet. ${PROSE('Footer text')}</footer>
</body></html>`;

describe('extractArticle: body', () => {
  const article = extractArticle(articlePage(), 'https://news.example/world/rivers-rise');

  it('keeps the paragraphs and sub-headings, one block per line, in page order', () => {
    expect(article.articleBody!.split('\n')).toEqual([
      PROSE('Rainfall'),
      PROSE('The river level'),
      'What comes next',
      'Sandbags for every street',
      'A new pump at the bridge',
      PROSE('Flood defence spending'),
      PROSE('Insurance claims'),
      'Engineers studied deep space travel for the report, they said on Monday.',
      'Eight sandbags, filled and tied',
    ]);
  });

  it('leaves out navigation, sharing, related links, comments, footer, title and captions', () => {
    for (const furniture of ['Home', 'Share on Facebook', 'Another story', 'Reader comment', 'Footer text', 'Rivers rise after', 'The river at noon', 'Moon rush', 'Published Nov', 'Sharing is caring']) {
      expect(article.articleBody).not.toContain(furniture);
    }
  });

  it('gives cleaned HTML with absolute links, the figure and caption kept', () => {
    expect(article.articleBodyRaw).toContain('<h2>What comes next</h2>');
    expect(article.articleBodyRaw).toContain('<img src="https://news.example/img/river.jpg" alt="The river">');
    expect(article.articleBodyRaw).toContain('<figcaption>The river at noon (Photo: Agency)</figcaption>');
    expect(article.articleBodyRaw).not.toMatch(/class=|Share on Facebook/);
  });

  it('omits articleBodyRaw when asked to', () => {
    expect(extractArticle(articlePage(), 'https://news.example/a', { articleBodyRaw: false }).articleBodyRaw).toBeUndefined();
  });

  it("follows the page's own itemprop=articleBody mark over a longer unmarked block", () => {
    const page = `<html><body><div class="box">${[1, 2, 3, 4, 5].map((i) => `<p>${PROSE(`Unmarked ${i}`)}</p>`).join('')}</div>
      <div class="box" itemprop="articleBody"><p>${PROSE('Marked one')}</p><p>${PROSE('Marked two')}</p></div></body></html>`;
    expect(extractArticle(page, 'https://x.example/p/2').articleBody).toBe(`${PROSE('Marked one')}\n${PROSE('Marked two')}`);
  });

  it('drops the heading that repeats the title but keeps other headings, h1 included', () => {
    const page = `<html><head><title>Main title | Site</title></head><body><article><h1>Main title</h1><p>${PROSE('Part one')}</p><h1>A second part</h1><p>${PROSE('Part two')}</p></article></body></html>`;
    expect(extractArticle(page, 'https://x.example/p/3').articleBody).toBe(`${PROSE('Part one')}\nA second part\n${PROSE('Part two')}`);
  });

  it('keeps a container of paragraphs whose class only sounds like a caption or credit', () => {
    const paragraphs = ['Rates', 'Fees', 'Rewards'].map((topic) => `<p>${PROSE(topic)}</p>`).join('');
    const page = `<html><body><div class="credit-cards-guide">${paragraphs}<p class="photo-credit">Photo: Agency</p></div></body></html>`;
    expect(extractArticle(page, 'https://x.example/p/4').articleBody).toBe(['Rates', 'Fees', 'Rewards'].map(PROSE).join('\n'));
  });

  it('drops elements hidden by attribute, style or a hiding class, but not an "overflow-hidden" wrapper', () => {
    const page = `<html><body><div class="overflow-hidden"><p>${PROSE('Visible')}</p><p class="hidden">${PROSE('Class')}</p>
      <p style="display: none">${PROSE('Style')}</p><p hidden>${PROSE('Attribute')}</p><p>${PROSE('Shown')}</p></div>
      <div class="teasers">${['x', 'y', 'z'].map((t) => `<div><a href="/${t}">Teaser ${t}</a></div>`).join('')}</div></body></html>`;
    expect(extractArticle(page, 'https://x.example/p/5').articleBody).toBe(`${PROSE('Visible')}\n${PROSE('Shown')}`);
  });

  it('keeps a hidden wrapper that holds the article: React\'s streamed `<div hidden id="S:0">`, a "hide" class a script lifts', () => {
    const paragraphs = ['Rates', 'Fees', 'Rewards'].map((topic) => `<p>${PROSE(topic)}</p>`).join('');
    const teaser = '<div class="promo-box"><p>Subscribe today and get the first month free, cancel at any time.</p></div>';
    for (const wrapper of ['<div hidden id="S:0">', '<div class="hide">', '<div aria-hidden="true">']) {
      const page = `<html><body><div id="root">Loading…</div>${wrapper}<div class="story">${paragraphs}</div></div>${teaser}<p hidden>${PROSE('Hidden note')}</p></body></html>`;
      expect(extractArticle(page, 'https://x.example/p/7').articleBody).toBe(['Rates', 'Fees', 'Rewards'].map(PROSE).join('\n'));
    }
  });

  it('keeps wrappers named like furniture ("widget", "sidebar") that hold the article, nested ones too', () => {
    const paragraphs = ['Rates', 'Fees', 'Rewards'].map((topic) => `<p>${PROSE(topic)}</p>`).join('');
    const sidebar = '<div class="sidebar"><div class="widget"><p>Popular: ten ways to save on fees, and more this week.</p></div></div>';
    const page = `<html><body><div class="widget widget_text"><div class="widget-content"><div class="textwidget">${paragraphs}</div></div></div>${sidebar}</body></html>`;
    expect(extractArticle(page, 'https://x.example/p/8').articleBody).toBe(['Rates', 'Fees', 'Rewards'].map(PROSE).join('\n'));
  });

  it("keeps the article's prose blocks that a page builder names widgets (Elementor), not the readers' comments beside them", () => {
    const topics = [['Rates', 'Fees', 'Rewards'], ['Limits', 'Terms', 'Points'], ['Cards', 'Loans', 'Savings'], ['Taxes', 'Pensions', 'Bonds']];
    const widget = (names: string[]) =>
      `<div class="elementor-element elementor-widget elementor-widget-text-editor"><div class="elementor-widget-container">${names.map((t) => `<p>${PROSE(t)}</p>`).join('')}</div></div>`;
    const comment = (n: number) => `<p>Reader ${n} thanks the author for this piece and says the section on fees helped them pick a card that suits the way they spend each month</p>`;
    const comments = `<div class="comment-list"><div class="comment-body">${[1, 2, 3].map(comment).join('')}</div></div>`;
    const page = `<html><body><div class="elementor elementor-3431">${topics.map(widget).join('<div class="elementor-widget-spacer"></div>')}${comments}</div></body></html>`;
    expect(extractArticle(page, 'https://x.example/p/9').articleBody).toBe(topics.flat().map(PROSE).join('\n'));
  });

  it('keeps an unclosed <aside> banner that the parser makes the whole page', () => {
    const paragraphs = ['Rates', 'Fees', 'Rewards'].map((topic) => `<p>${PROSE(topic)}</p>`).join('');
    const page = `<html><body><aside class="announcement-banner"><a href="/news">We joined Akamai</a><main><article>${paragraphs}</article></main></body></html>`;
    expect(extractArticle(page, 'https://x.example/p/10').articleBody).toBe(['Rates', 'Fees', 'Rewards'].map(PROSE).join('\n'));
  });

  it('reads an article that a page builder wraps in a <header>, and listicle items named for their picture', () => {
    const paragraphs = ['Rates', 'Fees', 'Rewards', 'Limits', 'Terms'].map((topic) => `<p>${PROSE(topic)}</p>`).join('');
    const headerPage = `<html><body><header class="site"><a href="/">Logo</a></header><main><h1>Tips</h1><header class="rich-text">${paragraphs}</header></main></body></html>`;
    expect(extractArticle(headerPage, 'https://x.example/p/11').articleBody).toBe(['Rates', 'Fees', 'Rewards', 'Limits', 'Terms'].map(PROSE).join('\n'));
    const item = (topic: string) => `<div class="paragraph--type--list-item-large-image"><img src="/${topic}.jpg"><h2>${topic}</h2><p>${PROSE(topic)} ${PROSE(topic)}</p></div>`;
    const listicle = `<html><body><main><div class="body"><p>${PROSE('Intro')}</p>${['Catan', 'Azul'].map(item).join('')}</div></main></body></html>`;
    expect(extractArticle(listicle, 'https://x.example/p/12').articleBody).toBe([PROSE('Intro'), 'Catan', `${PROSE('Catan')} ${PROSE('Catan')}`, 'Azul', `${PROSE('Azul')} ${PROSE('Azul')}`].join('\n'));
    // a gallery's short captions are still no text
    const gallery = `<div class="image-gallery"><p>Photo: Agency</p></div>`;
    expect(extractArticle(listicle.replace('</div></main>', `${gallery}</div></main>`), 'https://x.example/p/12').articleBody).not.toContain('Photo: Agency');
  });

  it("joins an article's chunks that a page builder wraps in layers of its own, the repeated class on the outermost", () => {
    const chunk = (topics: string[]) =>
      `<div class="article-card"><div class="text-block"><div class="text-block__text"><div class="rich-text">${topics.map((t) => `<p>${PROSE(t)}</p>`).join('')}</div></div></div></div>`;
    const card = '<div class="article-card"><a class="card-wrapper" href="/quote"><div class="card-image"><img src="/q.jpg"></div></a></div>';
    const page = `<html><body><main><h1>Solar in four steps</h1><div class="article-body">${chunk(['Rates'])}${card}${chunk(['Fees', 'Rewards', 'Limits', 'Terms', 'Points', 'Cards'])}${chunk(['Taxes'])}</div></main></body></html>`;
    expect(extractArticle(page, 'https://x.example/p/13').articleBody).toBe(['Rates', 'Fees', 'Rewards', 'Limits', 'Terms', 'Points', 'Cards', 'Taxes'].map(PROSE).join('\n'));
  });

  it("reads Elementor's text widgets: their frames are named widgets, a sidebar's widget is still dropped", () => {
    const editor = (topics: string[]) =>
      `<div class="elementor-widget-wrap elementor-element-populated"><div class="elementor-element elementor-widget elementor-widget-text-editor"><div class="elementor-widget-container">${topics.map((t) => `<p>${PROSE(t)}</p>`).join('')}</div></div></div>`;
    const sidebar = '<div class="widget widget_text"><p>Book a visit: call us today, our team answers every day of the week.</p></div>';
    const page = `<html><body><main class="site-main"><div class="page-header"><h1>Dental trends</h1></div><div class="elementor">${editor(['Rates', 'Fees'])}</div>${sidebar}</main></body></html>`;
    expect(extractArticle(page, 'https://x.example/p/14').articleBody).toBe(['Rates', 'Fees'].map(PROSE).join('\n'));
  });

  it("joins the article's intro that a page builder puts in a sibling container of the same kind, not the title's block or a short note after it", () => {
    // restroworks: Elementor's intro container and the one holding the rest, side by side; the scoring takes the longer only
    const container = (id: string, inner: string) => `<div class="elementor-element elementor-element-${id} e-flex e-con-boxed e-con e-parent"><div class="e-con-inner">${inner}</div></div>`;
    const prose = (topics: string[]) => topics.map((t) => `<p>${PROSE(t)}</p>`).join('');
    const title = container('a1', '<h1>Types of service</h1><p>A short guide to the ways restaurants serve their guests, from counters to tables.</p>');
    const intro = container('b2', `<h2>Why service matters</h2>${prose(['Service', 'Guests'])}`);
    const rest = container('c3', `<div class="body-part">${prose(['Counter', 'Buffet', 'Family style', 'Fine dining', 'Takeout', 'Delivery', 'Drive-thru', 'Ghost kitchens'])}</div>`);
    const note = container('d4', '<p>Written by our editors, who visited restaurants in three states and spoke with their owners and staff.</p>');
    const page = `<html><body><div class="elementor">${title}${intro}${rest}${note}</div></body></html>`;
    const body = extractArticle(page, 'https://x.example/p/15').articleBody!;
    expect(body.startsWith(`Why service matters\n${PROSE('Service')}`)).toBe(true);
    expect(body).toContain(PROSE('Drive-thru'));
    expect(body).not.toContain('A short guide');
    expect(body).not.toContain('Written by our editors');
  });

  it("keeps the article's own prose blocks that cite many links, where a block of links beside them goes", () => {
    const cited = (topic: string) => `<p>${PROSE(topic)} See <a href="/r/${topic}">the full ${topic.toLowerCase()} report from the national agency</a>.</p>`;
    const links = '<div class="more"><a href="/a">Five more rate stories you may like</a> and <a href="/b">Ten fee stories</a></div>';
    const page = `<html><body><main><h1>Rates</h1><div class="story"><p>${PROSE('Intro')}</p><div class="section">${['Rates', 'Fees', 'Rewards'].map(cited).join('')}</div>${links}</div></main></body></html>`;
    const body = extractArticle(page, 'https://x.example/p/15').articleBody!;
    expect(body).toContain(PROSE('Fees'));
    expect(body).toContain('the full rewards report from the national agency');
    expect(body).not.toContain('Five more rate stories');
  });

  it("falls back to JSON-LD articleBody when the page's markup holds much less of it (a script-built page)", () => {
    const structuredBody = [PROSE('First'), PROSE('Second'), PROSE('Third')].join('\n\n');
    const jsonLd = JSON.stringify({ '@type': 'NewsArticle', headline: 'Scripted', articleBody: structuredBody });
    const page = `<html><head><script type="application/ld+json">${jsonLd}</script></head><body><div id="app"><p>Loading the story, please wait a moment.</p></div></body></html>`;
    const article = extractArticle(page, 'https://x.example/p/6');
    expect(article.articleBody).toBe([PROSE('First'), PROSE('Second'), PROSE('Third')].join('\n'));
    expect(article.articleBodyRaw).toBe(`<article>\n<p>${PROSE('First')}</p>\n<p>${PROSE('Second')}</p>\n<p>${PROSE('Third')}</p>\n</article>`);
  });

  it("keeps the page's own markup when JSON-LD articleBody is longer only by its template's indentation (mashable)", () => {
    const padding = `\n${' '.repeat(40)}`.repeat(30);
    const structuredBody = [PROSE('First'), PROSE('Second'), 'Be the first to know!', PROSE('Third')].join(padding);
    const jsonLd = JSON.stringify({ '@type': 'NewsArticle', headline: 'Deal', articleBody: structuredBody });
    const page = `<html><head><script type="application/ld+json">${jsonLd}</script></head><body><article><p>${PROSE('First')}</p><p>${PROSE('Second')}</p><p>${PROSE('Third')}</p></article></body></html>`;
    expect(extractArticle(page, 'https://x.example/p/7').articleBody).toBe([PROSE('First'), PROSE('Second'), PROSE('Third')].join('\n'));
  });

  it('takes text written straight into a container and paragraphs split by line breaks', () => {
    const page = `<html><body><div class="menu"><a href="/">Home</a></div><div class="col">${PROSE('Loose text')}<br><br>${PROSE('After a break')}<div class="meta">x</div></div></body></html>`;
    expect(extractArticle(page, 'https://x.example/p/1').articleBody).toBe(`${PROSE('Loose text')}\n${PROSE('After a break')}`);
  });
});

describe('extractArticle: metadata', () => {
  it('reads the page itself when there is no structured data', () => {
    const article = extractArticle(articlePage(), 'https://news.example/world/rivers-rise');
    expect(article).toMatchObject({
      headline: 'Rivers rise after a week of rain',
      datePublished: '2019-11-19T08:21:00+00:00',
      datePublishedRaw: '2019-11-19T08:21:00+0000',
      inLanguage: 'en',
      mainImage: 'https://news.example/img/river.jpg',
      images: ['https://news.example/img/river.jpg'],
      videoUrls: ['https://news.example/media/flood.mp4'],
      breadcrumbs: [{ name: 'Home', link: 'https://news.example/' }, { name: 'World', link: 'https://news.example/world' }],
      description: PROSE('Rainfall'),
      url: 'https://news.example/world/rivers-rise',
    });
    expect(article.audioUrls).toBeUndefined();
    // The byline under the <h1> ("By …" in a "byline" class) passes the fitted author model's threshold, written as the page writes it.
    expect(article).toMatchObject({ author: 'Jane Doe and John Roe', authorsList: ['Jane Doe', 'John Roe'] });
  });

  it('prefers JSON-LD and meta tags for language, image, description, breadcrumbs, audio; headline, date and authors as the fitted models weigh them', () => {
    const jsonLd = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'NewsArticle', headline: 'Structured headline', datePublished: '2019-11-20', author: [{ '@type': 'Person', name: 'Ann Lee' }, { '@type': 'Person', name: 'Bo Chan' }], inLanguage: 'pt-BR', image: { '@type': 'ImageObject', url: '/lead.jpg' }, description: 'Structured summary' },
        { '@type': 'BreadcrumbList', itemListElement: [{ '@type': 'ListItem', position: 2, name: 'World news', item: '/world' }, { '@type': 'ListItem', position: 1, name: 'Front page', item: '/' }] },
      ],
    };
    const head = `<script type="application/ld+json">${JSON.stringify(jsonLd)}</script><meta property="og:title" content="OG title"><meta property="og:audio" content="https://cdn.example/a.mp3">`;
    const article = extractArticle(articlePage({ head }), 'https://news.example/world/rivers-rise');
    expect(article).toMatchObject({
      // The fitted headline model prefers the visible <h1> over a JSON-LD headline that differs from it (issue 19: the JSON-LD one won before).
      headline: 'Rivers rise after a week of rain',
      // Where the page shows a byline and a date that its JSON-LD contradicts, the fitted models take what a reader sees (issue 19: WCXB's annotations do).
      datePublished: '2019-11-19T08:21:00+00:00',
      datePublishedRaw: '2019-11-19T08:21:00+0000',
      authorsList: ['Jane Doe', 'John Roe'],
      inLanguage: 'pt',
      mainImage: 'https://news.example/lead.jpg',
      description: 'Structured summary',
      breadcrumbs: [{ name: 'Front page', link: 'https://news.example/' }, { name: 'World news', link: 'https://news.example/world' }],
      audioUrls: ['https://cdn.example/a.mp3'],
    });
    expect(article.images).toEqual(['https://news.example/lead.jpg', 'https://news.example/img/river.jpg']);
  });

  it("reads the author from the page's article record that names one, when the first one found does not (a theme's BlogPosting beside a shop's Article)", () => {
    const records = [
      { '@context': 'https://schema.org', '@type': 'Article', headline: 'Ten drawing books', author: { '@type': 'Person', name: 'Cathy Horvath Buchanan' } },
      { '@context': 'https://schema.org', '@type': 'BlogPosting', headline: 'Ten drawing books' },
    ];
    const head = records.map((record) => `<script type="application/ld+json">${JSON.stringify(record)}</script>`).join('');
    const html = `<html><head>${head}</head><body><h1>Ten drawing books</h1><p>${PROSE('Drawing')}</p></body></html>`;
    const { evidence } = extractArticleWithEvidence(html, 'https://artist.example/blogs/ten-books');
    expect(evidence.authorCandidates.map((c) => [c.text, c.features.from_structuredPerson])).toEqual([['Cathy Horvath Buchanan', 1]]);
  });

  it('leaves out fields without a valid value', () => {
    const article = extractArticle('<html><body><p>Short.</p></body></html>', 'https://x.example/');
    expect(Object.keys(article).sort()).toEqual(['probability', 'url']);
  });
});

describe('extractArticle: probability', () => {
  const teaser = (i: number) => `<article class="teaser"><h2><a href="/story-${i}">Story number ${i} headline</a></h2><p>A one-line summary of story ${i}, short.</p></article>`;
  const listing = `<html><head><title>World news</title></head><body><main>${Array.from({ length: 10 }, (_, i) => teaser(i)).join('')}</main></body></html>`;
  const home = `<html><head><title>Daily Planet</title></head><body><nav><a href="/world">World</a></nav>${Array.from({ length: 12 }, (_, i) => teaser(i)).join('')}</body></html>`;

  it('is high for a single article and low for a listing of teasers or a home page', () => {
    const single = extractArticle(articlePage({ article: `<p>${PROSE('Transport')}</p><p>${PROSE('Schools')}</p><p>${PROSE('Power cuts')}</p>` }), 'https://news.example/world/rivers-rise').probability;
    const teasers = extractArticle(listing, 'https://news.example/world/').probability;
    const front = extractArticle(home, 'https://news.example/').probability;
    // The fitted page-type model: a short article (540 characters) without any metadata is about even, not sure (it was > 0.7 by the hand-set rule; the refit of issue 19's second pass puts it at 0.50, the body pass's refit at 0.48).
    expect(single).toBeGreaterThanOrEqual(0.45);
    expect(single).toBeGreaterThan(teasers + 0.3);
    expect(teasers).toBeLessThan(0.3);
    expect(front).toBeLessThan(0.2);
  });
});

describe('extractArticle on a page of 20,000 unclosed tags', () => {
  it('still finds the text (the tree is capped at 512 levels, no stack overflow)', () => {
    const prose = 'A sentence of the story, long enough to count as prose, with a comma or two. '.repeat(6);
    const article = extractArticle(`<html><body>${'<div>'.repeat(20_000)}<p>${prose}</p><p>${prose}</p></body></html>`, 'https://news.example/2020/story');
    expect(article.articleBody).toContain('A sentence of the story');
  });
});

describe('extractArticle mainImage without structured data or og:image', () => {
  it('is the lead figure above the body inside the <article>', () => {
    const prose = '<p>A sentence of the story, long enough to count as prose, with a comma or two, and then some more words.</p>'.repeat(4);
    const article = extractArticle(
      `<html><body><article><h1>Story</h1><figure class="lead"><img src="/img/lead.jpg"><figcaption>The lead photo.</figcaption></figure><div class="article-body">${prose}</div></article></body></html>`,
      'https://news.example/2024/story',
    );
    expect(article.mainImage).toBe('https://news.example/img/lead.jpg');
    expect(article.images?.[0]).toBe('https://news.example/img/lead.jpg');
  });
});

describe('extractArticle datePublished without structured data, meta tags or <time>', () => {
  it('reads the first element named as a date', () => {
    const prose = '<p>A sentence of the story, long enough to count as prose, with a comma or two, and then some more words.</p>'.repeat(4);
    const article = extractArticle(
      `<html><body><article><h1>Story</h1><div class="reading-time">5 min read</div><div class="publish-date">Published 7:07 PM EST Nov 19, 2019</div><div class="body">${prose}</div></article></body></html>`,
      'https://news.example/2019/story',
    );
    expect(article.datePublished).toBe('2019-11-19T19:07:00');
    expect(article.datePublishedRaw).toBe('Published 7:07 PM EST Nov 19, 2019');
  });
});
