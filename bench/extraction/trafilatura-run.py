"""The extraction bench's peer: trafilatura on the same pages as crawlhub's engine.

Reads one JSON object per stdin line ({"id", "url", "file"}: a gzip-compressed page), writes
one per stdout line ({"id", "body", "headline", "author", "date"}), then a last line
{"seconds": <extraction time, decompression excluded>}. Settings are trafilatura's defaults
for the body (extract() without comments, as its own benchmark runs it) and its metadata.
"""
import gzip
import json
import sys
import time

import trafilatura


def main():
    spent = 0.0
    for line in sys.stdin:
        page = json.loads(line)
        with gzip.open(page["file"], "rb") as f:
            html = f.read().decode("utf-8", errors="replace")
        started = time.perf_counter()
        try:
            document = trafilatura.bare_extraction(html, url=page["url"], include_comments=False, with_metadata=True)
        except Exception:  # a page trafilatura cannot read counts as an empty answer
            document = None
        spent += time.perf_counter() - started
        get = (lambda key: getattr(document, key, None)) if document is not None else (lambda key: None)
        print(json.dumps({"id": page["id"], "body": get("text") or "", "headline": get("title"), "author": get("author"), "date": get("date")}))
    print(json.dumps({"seconds": spent}))


if __name__ == "__main__":
    main()
