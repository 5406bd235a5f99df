"""A real Scrapy crawl through crawlhub's proxy with the official middleware
(scrapy-zyte-smartproxy), for test/compat/scrapy-smartproxy.test.ts.

Usage: scrapy-smartproxy.py START_URLS PROXY_URL APIKEY OUTPUT_JSON [SETTINGS_JSON]

Follows every link under site.test from START_URLS (a comma list) and writes OUTPUT_JSON:
{"items": [{"url", "title"}...], "stats": {Scrapy's stats}, "close_reason": ...}.
"""
import json
import sys
from urllib.parse import urlsplit

import scrapy
from scrapy import signals
from scrapy.crawler import CrawlerProcess

START_URLS, PROXY_URL, APIKEY, OUTPUT = sys.argv[1:5]
# More Scrapy settings for this crawl (the throttling crawl shortens the middleware's backoff).
EXTRA_SETTINGS = json.loads(sys.argv[5]) if len(sys.argv) > 5 else {}
if urlsplit(PROXY_URL).hostname != '127.0.0.1':
    sys.exit('only a 127.0.0.1 proxy is allowed, got %s' % PROXY_URL)


class SiteSpider(scrapy.Spider):
    name = 'site'
    allowed_domains = ['site.test']

    async def start(self):
        # Not start_urls: those skip the duplicate filter, so page 1 would be crawled twice.
        for url in START_URLS.split(','):
            yield scrapy.Request(url)

    def parse(self, response):
        yield {'url': response.url, 'title': response.css('title::text').get()}
        for href in response.css('a::attr(href)').getall():
            yield response.follow(href, self.parse)


process = CrawlerProcess({
    'LOG_LEVEL': 'INFO',
    'TELNETCONSOLE_ENABLED': False,
    'ROBOTSTXT_OBEY': False,
    'DOWNLOADER_MIDDLEWARES': {'scrapy_zyte_smartproxy.ZyteSmartProxyMiddleware': 610},
    'ZYTE_SMARTPROXY_ENABLED': True,
    'ZYTE_SMARTPROXY_URL': PROXY_URL,
    'ZYTE_SMARTPROXY_APIKEY': APIKEY,
    # Two tries per proxied request (one retry on another exit), so the site's hit log
    # tells how many 503 banned answers the proxy gave.
    'ZYTE_SMARTPROXY_DEFAULT_HEADERS': {'X-Crawlera-Max-Retries': '1'},
    # The slot delay the middleware sets from Retry-After is then exact (not 0.5-1.5x).
    'DOWNLOAD_DELAY_JITTER': 0,
    **EXTRA_SETTINGS,
})
crawler = process.create_crawler(SiteSpider)
items = []
closed = {}


# Module-level functions: signal receivers are weak references (a lambda would be collected).
def item_scraped(item, **_):
    items.append(dict(item))


def spider_closed(reason, **_):
    closed['reason'] = reason


crawler.signals.connect(item_scraped, signal=signals.item_scraped)
crawler.signals.connect(spider_closed, signal=signals.spider_closed)
process.crawl(crawler)
process.start()

with open(OUTPUT, 'w') as f:
    json.dump({'items': items, 'stats': crawler.stats.get_stats(), 'close_reason': closed.get('reason')}, f, default=str)
print('ok crawl finished: %d items' % len(items), flush=True)
