import { parseLightPage } from '../../dom';
import { readStructuredData, firstRecord } from '../../structured-data';
import { leanHtml } from '../lean-html';
import { dateCandidates, toIsoDate } from './published-date';

/** The candidates of a page, by day: the sources that state it and the labels beside it. */
function candidatesOf(html: string, url = 'https://blog.example/posts/a-post', headlineKeys?: ReadonlySet<string>) {
  const document = parseLightPage(html);
  const data = readStructuredData(document, url);
  const article = firstRecord(data, ['BlogPosting', 'NewsArticle', 'Article']);
  return Object.fromEntries(
    dateCandidates(article, data, document, url, headlineKeys).map((c) => [
      c.iso.slice(0, 10),
      { sources: Object.keys(c.features).filter((k) => k.startsWith('from_') && c.features[k]).map((k) => k.slice(5)), updated: c.features.updatedLabel, published: c.features.publishedLabel, first: c.features.firstAfterHeadline, latest: c.features.latest },
    ]),
  );
}

describe('toIsoDate', () => {
  it('keeps ISO dates, with a T and the zone the page gave', () => {
    expect(toIsoDate('2019-11-19T13:03:00.000Z')).toBe('2019-11-19T13:03:00.000Z');
    expect(toIsoDate('2019-11-19 02:24:00')).toBe('2019-11-19T02:24:00');
    expect(toIsoDate('2019-11-19T09:01:42+0530')).toBe('2019-11-19T09:01:42+05:30');
    expect(toIsoDate('2014-09-15')).toBe('2014-09-15T00:00:00');
  });

  it('reads dates written out in words, both orders', () => {
    expect(toIsoDate('Updated Nov. 19, 2019')).toBe('2019-11-19T00:00:00');
    expect(toIsoDate('5th October 2018')).toBe('2018-10-05T00:00:00');
  });

  it('takes the time of day of a written date, and its offset when numeric or GMT', () => {
    expect(toIsoDate('November 19, 2019, 07:47 PM EST')).toBe('2019-11-19T19:47:00');
    expect(toIsoDate('Mon, 18 Nov 2019 16:07:38 -0600')).toBe('2019-11-18T16:07:38-06:00');
    expect(toIsoDate('19 Nov 2019 07:09 GMT')).toBe('2019-11-19T07:09:00Z');
    expect(toIsoDate('01:38:07 PM IST Nov 20, 2019')).toBe('2019-11-20T13:38:07');
    expect(toIsoDate('12:05 am, Jan 2, 2020')).toBe('2020-01-02T00:05:00');
  });

  it('reads month names in German, French, Italian, Spanish, Portuguese and Dutch, and abbreviations they agree on', () => {
    expect(toIsoDate('5. März 2024')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('5 mars 2024')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('5 de marzo de 2024')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('sexta-feira, 22 de outubro de 2010 às 20:13')).toBe('2010-10-22T20:13:00');
    expect(toIsoDate('12 juli 2023')).toBe('2023-07-12T00:00:00');
    expect(toIsoDate('Sept. 3, 2021')).toBe('2021-09-03T00:00:00');
    // "jui" begins both juin and juillet: no month.
    expect(toIsoDate('3 jui 2021')).toBeUndefined();
  });

  it('reads numeric dates that say which part is the day, and leaves ambiguous ones out', () => {
    expect(toIsoDate('2024年3月5日')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('2024년 3월 5일')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('2024/03/05 14:20')).toBe('2024-03-05T14:20:00');
    expect(toIsoDate('05.03.2024')).toBe('2024-03-05T00:00:00');
    expect(toIsoDate('03/05/2024')).toBeUndefined();
    // With slashes, a part over 12 is the day: "Updated: 10/31/2024" (US), "15/12/2025" (day first).
    expect(toIsoDate('Updated: 10/31/2024')).toBe('2024-10-31T00:00:00');
    expect(toIsoDate('Posted on the 15/12/2025 at 19:00')).toBe('2025-12-15T19:00:00');
  });

  it('reads year-first dates with dots or a written month, and day-month-year joined by hyphens', () => {
    expect(toIsoDate('2025.12.17')).toBe('2025-12-17T00:00:00');
    expect(toIsoDate('2023 Jan 7')).toBe('2023-01-07T00:00:00');
    expect(toIsoDate('04-Aug-2021')).toBe('2021-08-04T00:00:00');
    // Spanish and Italian abbreviations as elsewhere: "ago" is agosto.
    expect(toIsoDate('04-ago-2021')).toBe('2021-08-04T00:00:00');
  });

  it('refuses what is no date', () => {
    expect(toIsoDate('2019-13-45')).toBeUndefined();
    expect(toIsoDate('yesterday')).toBeUndefined();
  });
});

describe('dateCandidates', () => {
  it('reads 3/4/2025 month first on a US-English page, and leaves it out on a page of another locale', () => {
    const page = (lang: string) => `<html lang="${lang}"><body><h1>Spring sale</h1><p>Posted 3/4/2025</p><p>Text.</p></body></html>`;
    expect(Object.keys(candidatesOf(page('en-US')))).toEqual(['2025-03-04']);
    expect(candidatesOf(page('en-GB'))).toEqual({});
  });

  it('reads 3/4/2025 month first on a page marked English without a country (a blog\'s author line)', () => {
    const html = '<html lang="en"><body><h1>DIY smart home automation</h1><div class="author"><a href="/blog/author/yucy/">Yucy</a><span class="time">3/4/2025</span></div><p>Text.</p></body></html>';
    expect(Object.keys(candidatesOf(html))).toEqual(['2025-03-04']);
  });

  it('reads 09.10.2024 month first when the page\'s structured date states that day (an American site writing dots)', () => {
    const record = (day: string) => `<script type="application/ld+json">{"@type":"Article","headline":"Renovation phases","datePublished":"${day}"}</script>`;
    const html = (day: string) => `<html lang="en"><head>${record(day)}</head><body><h1>Renovation phases</h1><p class="date">Published 09.10.2024</p><p>Text.</p></body></html>`;
    expect(Object.keys(candidatesOf(html('2024-09-10T12:00:00Z')))).toEqual(['2024-09-10']);
    // A structured day that is neither reading leaves the dotted date day first.
    expect(Object.keys(candidatesOf(html('2024-11-25T12:00:00Z'))).sort()).toEqual(['2024-10-09', '2024-11-25']);
  });

  it('takes the one day of the month an address gives without its day (/2025/12/the-slug) as the address\'s date', () => {
    const html = `<html><body><h1>Book Beat: gothic romance, magical realism and more</h1><p>Dec 20, 2025</p>
      <p>Out Jun 17, 2025: a novel.</p><p>Out Nov 4, 2025: another.</p></body></html>`;
    const dated = candidatesOf(html, 'https://books.example/2025/12/book-beat-gothic-romance/');
    expect(dated['2025-12-20'].sources).toEqual(['afterHeadline', 'url']);
    expect(dated['2025-06-17'].sources).toEqual(['afterHeadline']);
    // Two days in that month: the address names neither.
    const twice = candidatesOf(html.replace('Nov 4', 'Dec 4'), 'https://books.example/2025/12/book-beat-gothic-romance/');
    expect(twice['2025-12-20'].sources).toEqual(['afterHeadline']);
  });

  it('reads a date far down the page labelled "Post time", written with hyphens', () => {
    const html = `<html lang="en-US"><body><h1>How fast does an electric skateboard go?</h1>${'<p>A paragraph of the article.</p>'.repeat(45)}
      <div style="text-align:right;">Post time: 01-04-2024</div><hr></body></html>`;
    expect(candidatesOf(html)).toEqual({ '2024-01-04': expect.objectContaining({ sources: ['labelledText'], published: 1 }) });
    // Neither label nor date: a "post" in passing and a day written month-or-day first on a page of no known locale.
    expect(candidatesOf(html.replace('en-US', 'en-GB'))).toEqual({});
    expect(candidatesOf(html.replace('Post time', 'Time to post'))).toEqual({});
  });

  it('reads an ambiguous 03/10/2023 day first when only that reading is a day the page states elsewhere (a British site marked "en")', () => {
    const html = '<html lang="en"><body><h1>How many wine types are there?</h1><p class="date">03/10/2023</p><p>Text.</p></body></html>';
    expect(Object.keys(candidatesOf(html, 'https://wine.example/blog/2023/october/03/wine-types/'))).toEqual(['2023-10-03']);
    expect(Object.keys(candidatesOf(html, 'https://wine.example/blog/wine-types/'))).toEqual(['2023-03-10']);
  });

  it("reads a Yoast-style @graph: the WebPage's dates when no Article record has them, and the meta tags of a change", () => {
    const html = `<html><head>
      <meta property="article:published_time" content="2024-09-06T13:12:36+00:00" />
      <meta property="article:modified_time" content="2025-11-14T06:49:57+00:00" />
      <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage","@id":"https://blog.example/posts/a-post","datePublished":"2024-09-06T13:12:36+00:00","dateModified":"2025-11-14T06:49:57+00:00"},{"@type":"WebSite","name":"Blog"}]}</script>
      </head><body><h1>A post</h1><p>Text.</p></body></html>`;
    expect(candidatesOf(html)).toEqual({
      '2024-09-06': expect.objectContaining({ sources: ['recordPublished', 'metaPublished'], latest: 0 }),
      '2025-11-14': expect.objectContaining({ sources: ['recordModified', 'metaModified'], latest: 1 }),
    });
  });

  it('reads the date under the headline of a page without an <h1>, where the headline the page states is shown in a <div>', () => {
    const html = `<html><body><div class="menu"><a>News</a> <span>Posted March 2, 2025</span></div>
      <div class="headline_content_block"><div class="title">Homestead gardening makes rural communities more self-reliant</div>
      <p>By <a>Md Aynal Haque</a></p><p>RAJSHAHI, Dec 20, 2025 (BSS) - Homestead gardening has been contributing…</p></div></body></html>`;
    const headlines = new Set(['homestead gardening makes rural communities more self reliant']);
    expect(candidatesOf(html, undefined, headlines)['2025-12-20']).toMatchObject({ sources: ['afterHeadline'], first: 1 });
    // Without a headline the page states, no text stands in for the <h1>: the dateline is not read.
    expect(candidatesOf(html)['2025-12-20']).toBeUndefined();
  });

  it('reads the dates around an <h2> that words the stated headline longer, on a page without an <h1>', () => {
    const html = `<html><body><h2>Spring collection</h2><div class="hero"><h3><span>blog | </span> February 01, 2022</h3>
      <h2>7 Ways to Help You Transition to a Plant Based Diet</h2><small>Share:</small></div>
      <div class="author"><p>Luke Kim</p><small>December 17, 2025</small></div><p>Text of the post.</p></body></html>`;
    const headlines = new Set(['7 ways to transition to a plant based diet']);
    expect(candidatesOf(html, undefined, headlines)).toEqual({
      '2022-02-01': expect.objectContaining({ sources: ['beforeHeadline'] }),
      '2025-12-17': expect.objectContaining({ sources: ['afterHeadline'], first: 1 }),
    });
    // An <h2> that shares a few of the headline's words is not the headline.
    expect(candidatesOf(html, undefined, new Set(['ways to save on a spring diet plan']))).toEqual({});
  });

  it('finds the date a reader sees under the headline, with its "Published" or "Last updated" label', () => {
    const html = `<html><body><header><h1>AI in Education</h1><p>Published on: February 14, 2025</p></header>
      <div class="meta"><span>Last updated:</span> <span>Dec 12, 2025</span></div><p>Text of the post.</p></body></html>`;
    expect(candidatesOf(html)).toEqual({
      '2025-02-14': expect.objectContaining({ sources: ['afterHeadline', 'labelledText'], published: 1, first: 1 }),
      '2025-12-12': expect.objectContaining({ sources: ['afterHeadline', 'labelledText'], updated: 1, first: 0 }),
    });
  });

  it('reads <time> elements (datetime, else their text), elements whose class names a date, and a date in the address', () => {
    const html = `<html><body><article><div class="article-body__published">Published <time pubdate datetime="2025-08-13" title="August 13, 2025">August 13, 2025</time></div>
      <div class="text__date">August 25, 2024</div><p>Text of the post.</p></article></body></html>`;
    const found = candidatesOf(html, 'https://whatever.example/2025/12/18/the-post/');
    // The <time> and its wrapper (class "…published") state the same day: one candidate of two sources.
    expect(found['2025-08-13']).toMatchObject({ sources: ['timeElement', 'shownDate', 'labelledText'], published: 1 });
    expect(found['2024-08-25']).toMatchObject({ sources: ['shownDate'] });
    expect(found['2025-12-18']).toMatchObject({ sources: ['url'] });
  });

  it("reads the publication and change dates a builder states as <meta itemprop> in the <head> (Squarespace), without an item around them", () => {
    const html = `<html><head><meta itemprop="datePublished" content="2020-12-23T11:48:54-0800"/><meta itemprop="dateModified" content="2025-05-23T07:33:38-0700"/></head>
      <body><h1>Japan Travel Guide</h1><p>Text.</p></body></html>`;
    expect(candidatesOf(html)).toEqual({
      '2020-12-23': expect.objectContaining({ sources: ['metaPublished'] }),
      '2025-05-23': expect.objectContaining({ sources: ['metaModified'] }),
    });
  });

  it('finds a date shown just above the headline, with the label before it', () => {
    const html = `<html><body><div class="kicker"><span>Published</span> <span>12 March 2025</span></div><h1>The headline</h1><p>Text of the post.</p></body></html>`;
    expect(candidatesOf(html)).toEqual({ '2025-03-12': expect.objectContaining({ sources: ['beforeHeadline', 'labelledText'], published: 1 }) });
    // A date far above the headline (a sidebar's, the site's) is not the article's.
    const far = `<html><body><p>News of 3 May 2024</p><p>one</p><p>two</p><p>three</p><p>four</p><h1>The headline</h1><p>Text.</p></body></html>`;
    expect(candidatesOf(far)).toEqual({});
  });

  it("reads meta names with pub-date, an element of class \"dates\", and an address date glued to the slug", () => {
    const html = `<html><head><meta name="pub-date" content="2024-02-01"></head><body><p>Text.</p>
      <footer><div class="dates">Jan 5, 2023</div></footer></body></html>`;
    expect(candidatesOf(html, 'https://news.example/2022-11-30story-of-the-day')).toEqual({
      '2024-02-01': expect.objectContaining({ sources: ['metaPublished'] }),
      '2023-01-05': expect.objectContaining({ sources: ['shownDate'] }),
      '2022-11-30': expect.objectContaining({ sources: ['url'] }),
    });
  });

  it("reads the date of an aside or footer the reader dropped, as a source of its own", () => {
    const html = `<html><body><h1>Title</h1><aside class="post-meta"><time datetime="2023-09-01T18:27:56Z">Sep 01, 2023</time></aside><p>Text.</p></body></html>`;
    const document = parseLightPage(leanHtml(html));
    const data = readStructuredData(document, 'https://blog.example/p');
    expect(dateCandidates(undefined, data, document, 'https://blog.example/p').map((c) => [c.iso, c.features.from_furniture, c.features.from_timeElement])).toEqual([['2023-09-01T18:27:56Z', 1, 0]]);
  });

  it("reads an address date with the month's name", () => {
    expect(candidatesOf('<html><body><p>Text.</p></body></html>', 'https://wine.example/blog/2023/october/03/how-many-wines/')).toEqual({ '2023-10-03': expect.objectContaining({ sources: ['url'] }) });
    expect(candidatesOf('<html><body><p>Text.</p></body></html>', 'https://wine.example/blog/2023/guides/03/')).toEqual({});
  });

  it('reads a labelled date far from the headline, the label in its own text or beside the date', () => {
    const filler = Array.from({ length: 50 }, (_, i) => `<p>Paragraph ${i} of the guide.</p>`).join('');
    const html = `<html><body><h1>Webcams</h1>${filler}<p style="text-align:right">Last updated: <span>November 13, 2025</span></p><p>This article was originally published on 26 Sep 2019 at 4:12pm but has been regularly updated.</p></body></html>`;
    expect(candidatesOf(html)).toEqual({
      '2025-11-13': expect.objectContaining({ sources: ['labelledText'], updated: 1, published: 0 }),
      '2019-09-26': expect.objectContaining({ sources: ['labelledText'], published: 1 }),
    });
    // A date without a label that far down (a footer's copyright, an event) is no candidate.
    expect(candidatesOf(`<html><body><h1>Webcams</h1>${filler}<p>Closed on November 13, 2025.</p></body></html>`)).toEqual({});
  });

  it('reads a datePublished from an article record kept as JSON in a meta tag', () => {
    const metaRecord = `<meta name="script:ld+json" content="{&quot;@type&quot;:&quot;Article&quot;,&quot;datePublished&quot;:&quot;2025-11-17T09:00:00-05:00&quot;}">`;
    expect(candidatesOf(`<html><head>${metaRecord}</head><body><p>Text.</p></body></html>`)).toEqual({ '2025-11-17': expect.objectContaining({ sources: ['metaRecordPublished'] }) });
  });

  it('marks the one day a page shows, and no day when it shows several', () => {
    const onlyShown = (html: string) => dateCandidates(undefined, readStructuredData(parseLightPage(html), 'https://blog.example/p'), parseLightPage(html), 'https://blog.example/p').map((c) => [c.iso.slice(0, 10), c.features.onlyShown]);
    const published = '<meta property="article:published_time" content="2020-05-13T20:03:25+00:00">';
    expect(onlyShown(`<html><head>${published}</head><body><h1>Title</h1><p>Updated January 2, 2025</p></body></html>`)).toEqual([['2020-05-13', 0], ['2025-01-02', 1]]);
    expect(onlyShown(`<html><body><h1>Title</h1><p>January 2, 2025</p><p>March 3, 2025</p></body></html>`)).toEqual([['2025-01-02', 0], ['2025-03-03', 0]]);
  });

  it("measures how far each day lies from the page's first and last days (a next-week fix against a guide refreshed years later)", () => {
    const html = `<html><head><meta property="article:published_time" content="2019-03-20T09:00:00+00:00"><meta property="article:modified_time" content="2019-03-27T09:00:00+00:00"></head>
      <body><h1>Best VPNs</h1><p>Updated March 11, 2026</p></body></html>`;
    const distances = Object.fromEntries(
      dateCandidates(undefined, readStructuredData(parseLightPage(html), 'https://blog.example/p'), parseLightPage(html), 'https://blog.example/p').map((c) => [
        c.iso.slice(0, 10),
        [c.features.afterEarliest, c.features.beforeLatest, c.features.span].map((v) => Math.round(Math.expm1(v))),
      ]),
    );
    expect(distances).toEqual({ '2019-03-20': [0, 2548, 2548], '2019-03-27': [7, 2541, 2548], '2026-03-11': [2548, 0, 2548] });
  });

  it('gives nothing for a page without a date', () => {
    expect(candidatesOf('<html><body><h1>Contact us</h1><p>Call 555-0100, open 9:00 to 17:00.</p></body></html>', 'https://shop.example/contact')).toEqual({});
  });
});
