# Settings of the example project. On crawlhub the job runs through sh_scrapy
# (`start-crawl`), which adds its own extension, middlewares and stats collector that
# write items, requests, logs, stats and the close reason to the job's FIFO.
BOT_NAME = "quotes_project"
SPIDER_MODULES = ["quotes_project.spiders"]
NEWSPIDER_MODULE = "quotes_project.spiders"

# Polite and predictable defaults for a small crawl.
ROBOTSTXT_OBEY = False
CONCURRENT_REQUESTS_PER_DOMAIN = 4
DEPTH_LIMIT = 10
CLOSESPIDER_PAGECOUNT = 200
USER_AGENT = "crawlhub-example (+https://github.com/crawlhub)"

# sh_scrapy listens for the telnet console on 0.0.0.0: a job has no use for it.
TELNETCONSOLE_ENABLED = False
# Scrapy >= 2.19 starts a code-executing remote control server (localhost, token in the
# user's profile directory) for every crawl: off for jobs.
REMOTE_CONTROL_ENABLED = False
