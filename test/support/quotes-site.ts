import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** The quotes the site shows, per page; the example Scrapy spider (examples/spiders/scrapy-quotes) scrapes them. */
export const QUOTES: Record<number, { text: string; author: string; tags: string[] }[]> = {
  1: [
    { text: 'The world as we have created it is a process of our thinking.', author: 'Albert Einstein', tags: ['change', 'thinking'] },
    { text: 'It is our choices that show what we truly are.', author: 'J.K. Rowling', tags: ['choices'] },
  ],
  2: [
    { text: 'There are only two ways to live your life.', author: 'Albert Einstein', tags: ['life', 'miracles'] },
    { text: 'The person, be it gentleman or lady, who has not pleasure in a good novel...', author: 'Jane Austen', tags: ['books'] },
  ],
  3: [
    { text: 'Try not to become a man of success.', author: 'Albert Einstein', tags: [] },
    { text: 'It is better to be hated for what you are than to be loved for what you are not.', author: 'Jane Austen', tags: ['life', 'love'] },
  ],
};
export const quotesAuthorSlug = (author: string) => author.toLowerCase().replace(/[^a-z]+/g, '-');

/** A quotes.toscrape.com look-alike on 127.0.0.1 (3 pages of 2 quotes, author pages, a 404 link, an off-site link, and endless slow pages). */
export async function startQuotesSite(slowMs = 300): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const quoteHtml = (q: { text: string; author: string; tags: string[] }) =>
    `<div class="quote"><span class="text">${esc(q.text)}</span> by <small class="author">${esc(q.author)}</small> <a href="/author/${quotesAuthorSlug(q.author)}/">(about)</a>` +
    `<div class="tags">${q.tags.map((t) => `<a class="tag" href="#tag-${t}">${t}</a>`).join(' ')}</div></div>`;
  const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.push(path);
    const send = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (path === '/') return send(200, page('Quotes', '<a href="/page/1/">Quotes</a> <a href="/missing">missing</a> <a href="http://127.0.0.1:1/elsewhere">elsewhere</a>'));
    let m = /^\/page\/(\d+)\/$/.exec(path);
    if (m && QUOTES[Number(m[1])]) {
      const n = Number(m[1]);
      const next = QUOTES[n + 1] ? `<li class="next"><a href="/page/${n + 1}/">Next</a></li>` : '';
      return send(200, page(`Page ${n}`, `${QUOTES[n].map(quoteHtml).join('\n')}<ul class="pager">${next}</ul><a href="/">Home</a>`));
    }
    m = /^\/author\/([a-z-]+)\/$/.exec(path);
    if (m) return send(200, page(m[1], `<h3 class="author-title">${m[1]}</h3><a href="/">Home</a>`));
    m = /^\/slow\/(\d+)$/.exec(path);
    if (m) {
      const n = Number(m[1]);
      setTimeout(() => send(200, page(`Slow ${n}`, `${quoteHtml({ text: `Slow quote ${n}`, author: 'Nobody', tags: [] })}<a href="/slow/${n + 1}">next</a>`)), slowMs);
      return;
    }
    send(404, page('Not found', ''));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

