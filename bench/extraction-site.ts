import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** The article every extraction test expects back: what the page shows, field by field. */
export const SITE_ARTICLE = {
  headline: 'Volunteers restore the old harbour lighthouse',
  author: 'Maria Jensen',
  datePublished: '2026-03-14T09:30:00',
  paragraphs: [
    'After three years of fundraising, a group of volunteers has finished restoring the lighthouse that guarded the old harbour for more than a century.',
    'The work replaced the rusted lantern room, rebuilt the spiral staircase and repainted the tower in its original red and white bands.',
    'The lighthouse will open to visitors every weekend from April, and the group hopes the ticket sales will pay for the upkeep of the building.',
  ],
};

/** The product every extraction test expects back. */
export const SITE_PRODUCT = { name: 'Trail Runner 2 Shoe', price: '89.95', currency: 'USD', sku: 'TR2-4471', availability: 'InStock' as const };

function articlePage(): string {
  const a = SITE_ARTICLE;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${a.headline} | Harbour News</title>
<meta property="og:title" content="${a.headline}"><meta name="author" content="${a.author}">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"${a.headline}","datePublished":"${a.datePublished}","author":{"@type":"Person","name":"${a.author}"}}</script>
</head><body><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<article><h1>${a.headline}</h1><p class="byline">By ${a.author}, <time datetime="${a.datePublished}">14 March 2026</time></p>
${a.paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article>
<aside class="related"><h3>Related</h3><ul><li><a href="/a">Ferry timetable changes</a></li><li><a href="/b">Market day moves</a></li></ul></aside>
<footer>© Harbour News. All rights reserved.</footer></body></html>`;
}

function productPage(): string {
  const p = SITE_PRODUCT;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${p.name} - Trail Shop</title>
<script type="application/ld+json">{"@context":"https://schema.org/","@type":"Product","name":"${p.name}","sku":"${p.sku}","offers":{"@type":"Offer","price":"${p.price}","priceCurrency":"${p.currency}","availability":"https://schema.org/InStock"}}</script>
</head><body><nav><a href="/">Home</a> › <a href="/shoes">Shoes</a></nav><main><h1>${p.name}</h1><div class="price">$${p.price}</div>
<p>SKU: ${p.sku}</p><button>Add to cart</button><p>A light trail shoe with a grippy sole.</p></main></body></html>`;
}

/**
 * A website on 127.0.0.1 for extraction tests: `/article`, `/product`, `/status/<n>`
 * (that status, a small page), `/redirect` (302 to /article), `/hold` (never answers
 * before `close`), `/image.png`, `/blank` (a page with nothing to see), and `/page/<path>`
 * for pages given by the caller (the benchmark's). Counts hits per path.
 */
export interface ExtractionSite {
  url: string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startExtractionSite(pages: Map<string, string> = new Map()): Promise<ExtractionSite> {
  const hits = new Map<string, number>();
  const held: import('node:http').ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const html = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (path === '/article') return html(200, articlePage());
    if (path === '/product') return html(200, productPage());
    if (path === '/redirect') return res.writeHead(302, { location: '/article' }).end();
    if (path === '/hold') return void held.push(res);
    if (path === '/image.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('89504e470d0a1a0a', 'hex'));
    if (path === '/blank') return html(200, '<html><head><title>Nothing</title><script>var a = 1;</script></head><body> </body></html>');
    const status = /^\/status\/(\d{3})$/.exec(path);
    if (status) return html(Number(status[1]), `<html><body><h1>Status ${status[1]}</h1></body></html>`);
    const page = pages.get(path.replace(/^\/page\//, ''));
    if (path.startsWith('/page/') && page !== undefined) return html(200, page);
    html(404, '<html><body><h1>Not found</h1></body></html>');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
