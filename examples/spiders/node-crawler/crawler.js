#!/usr/bin/env node
// A small crawler that runs on crawlhub's runner: plain Node (>= 18, for fetch), no
// dependencies. It starts at `start_url`, follows links on the same host up to
// `max_pages`, and writes what it finds to the job's FIFO in the line protocol of
// Scrapy Cloud jobs (sh_scrapy's writer): ITM, LOG, REQ, STA, FIN.
//
// Spider arguments arrive as the runner passes them, `-a name=value` (they are also in
// SHUB_JOB_DATA's `spider_args`):
//   start_url  where to start (required)
//   max_pages  how many pages to fetch at most (default 50)
//   delay_ms   pause between requests (default 0)
//
// Outside crawlhub (no SHUB_FIFO_PATH), the lines go to stdout:
//   node crawler.js -a start_url=http://127.0.0.1:8080/ -a max_pages=5
'use strict';

const fs = require('node:fs');

const LEVEL = { DEBUG: 10, INFO: 20, WARNING: 30, ERROR: 40 };

function spiderArgs(argv) {
  const args = {};
  try {
    Object.assign(args, JSON.parse(process.env.SHUB_JOB_DATA || '{}').spider_args || {});
  } catch {
    /* not on crawlhub */
  }
  for (let i = 0; i < argv.length; i++) {
    let pair = null;
    if (argv[i] === '-a' && i + 1 < argv.length) pair = argv[++i];
    else if (argv[i].startsWith('-a')) pair = argv[i].slice(2);
    if (pair === null) continue;
    const eq = pair.indexOf('=');
    if (eq > 0) args[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return args;
}

/** The FIFO (or stdout): one synchronous write per line, so a full pipe simply waits for the runner. */
function openOutput() {
  const path = process.env.SHUB_FIFO_PATH;
  const fd = path ? fs.openSync(path, 'w') : 1;
  return (command, payload) => fs.writeSync(fd, `${command} ${JSON.stringify(payload)}\n`);
}

const write = openOutput();
const log = (level, message) => write('LOG', { time: Date.now(), level: LEVEL[level], message });

const stats = {
  start_time: Date.now(),
  'downloader/request_count': 0,
  'downloader/response_count': 0,
  item_scraped_count: 0,
  'log_count/ERROR': 0,
};
const count = (name) => (stats[name] = (stats[name] || 0) + 1);
const sendStats = () => write('STA', { time: Date.now(), stats });

let stopping = false;
process.on('SIGTERM', () => {
  // The runner asks us to stop: finish the request in flight, then close as "shutdown".
  stopping = true;
  log('INFO', 'Received SIGTERM, shutting down gracefully');
});

function linksOf(html, base) {
  const out = [];
  const re = /<a\s[^>]*href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    try {
      const url = new URL(m[1] ?? m[2] ?? m[3], base);
      url.hash = '';
      if (url.protocol === 'http:' || url.protocol === 'https:') out.push(url.href);
    } catch {
      /* not a URL */
    }
  }
  return out;
}

function titleOf(html) {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return m ? m[1].replace(/\s+/g, ' ').trim() : null;
}

async function crawl() {
  const args = spiderArgs(process.argv.slice(2));
  if (!args.start_url) throw new Error('the start_url spider argument is required (-a start_url=http://...)');
  const start = new URL(args.start_url);
  const maxPages = Number(args.max_pages ?? 50);
  const delayMs = Number(args.delay_ms ?? 0);
  log('INFO', `Spider opened: crawling ${start.href} (at most ${maxPages} pages on ${start.host})`);

  const queue = [{ url: start.href, parent: null }];
  const seen = new Set([start.href]);
  let requestIndex = 0;
  while (queue.length && requestIndex < maxPages && !stopping) {
    const { url, parent } = queue.shift();
    const began = Date.now();
    count('downloader/request_count');
    let res;
    let body = '';
    try {
      res = await fetch(url, { redirect: 'follow', headers: { 'user-agent': 'crawlhub-node-crawler/1.0' } });
      body = await res.text();
    } catch (e) {
      count('log_count/ERROR');
      log('ERROR', `Error downloading <GET ${url}>: ${e.message}`);
      continue;
    }
    count('downloader/response_count');
    count(`downloader/response_status_count/${res.status}`);
    const index = requestIndex++;
    write('REQ', {
      url,
      status: res.status,
      method: 'GET',
      rs: Buffer.byteLength(body),
      duration: Date.now() - began,
      parent,
      time: began,
      fp: require('node:crypto').createHash('sha1').update(`GET ${url}`).digest('hex'),
    });
    log('DEBUG', `Crawled (${res.status}) <GET ${url}>`);
    const links = res.ok && /html/i.test(res.headers.get('content-type') || '') ? linksOf(body, url) : [];
    if (res.ok) {
      write('ITM', { _type: 'Page', url, status: res.status, title: titleOf(body), links: links.length, size: Buffer.byteLength(body) });
      count('item_scraped_count');
    }
    for (const link of links) {
      if (new URL(link).host !== start.host || seen.has(link)) continue;
      seen.add(link);
      queue.push({ url: link, parent: index });
    }
    if (index % 10 === 9) sendStats();
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
  }
  const reason = stopping ? 'shutdown' : 'finished';
  stats.finish_time = Date.now();
  stats.finish_reason = reason;
  sendStats();
  log('INFO', `Spider closed (${reason}): ${stats.item_scraped_count} items from ${requestIndex} pages`);
  write('FIN', { outcome: reason });
}

crawl().catch((e) => {
  log('ERROR', `Spider error: ${e.stack || e.message}`);
  write('FIN', { outcome: 'failed' });
  process.exitCode = 1;
});
