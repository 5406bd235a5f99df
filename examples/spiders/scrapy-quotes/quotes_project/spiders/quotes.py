from urllib.parse import urlsplit

import scrapy

from quotes_project.items import Quote


class QuotesSpider(scrapy.Spider):
    """Crawls one site from `start_url` (a spider argument), follows every link on the
    same host (scheme, host and port), and yields a Quote per `.quote` element it finds
    (markup as on quotes.toscrape.com: `.text`, `.author`, `.tag`)."""

    name = "quotes"

    def __init__(self, start_url=None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not start_url:
            raise ValueError("the spider argument start_url is required (-a start_url=...)")
        self.start_url = start_url
        self.origin = urlsplit(start_url)[:2]

    async def start(self):
        yield scrapy.Request(self.start_url, callback=self.parse)

    def start_requests(self):  # Scrapy < 2.13
        yield scrapy.Request(self.start_url, callback=self.parse)

    def parse(self, response):
        for quote in response.css(".quote"):
            yield Quote(
                text=quote.css(".text::text").get(),
                author=quote.css(".author::text").get(),
                tags=quote.css(".tag::text").getall(),
                url=response.url,
            )
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href)
            if urlsplit(url)[:2] == self.origin:
                yield scrapy.Request(url, callback=self.parse)
