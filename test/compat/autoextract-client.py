"""The official extraction client (scrapinghub-autoextract, from PyPI) against crawlhub's
extraction API. Arguments: <endpoint> <key> <key without extraction> <site url>
<expected article headline> <expected product name> <expected product price>.
Prints one line per check; exits non-zero at the first failure."""
import asyncio
import json
import os
import subprocess
import sys
import tempfile

from autoextract.aio import request_raw, RequestError
from autoextract.aio.errors import ACCOUNT_DISABLED_ERROR_TYPE, is_billable_error_msg
from autoextract.request import ArticleRequest, ProductRequest
from autoextract.stats import AggStats
from autoextract.sync import request_batch

endpoint, key, disabled_key, site, headline, product_name, price = sys.argv[1:8]


def check(what, ok, detail=''):
    print(('ok   ' if ok else 'FAIL ') + what + (f': {detail}' if detail and not ok else ''))
    if not ok:
        sys.exit(1)


# Sync client: a batch in order (the client numbers the queries in meta and sorts by it).
urls = [f'{site}/article', f'{site}/status/404', f'{site}/article']
results = request_batch(urls, 'article', api_key=key, endpoint=endpoint)
check('request_batch: one result per URL, in the order asked', [r['query']['userQuery']['url'] for r in results] == urls, results)
check('request_batch: the article headline', results[0].get('article', {}).get('headline') == headline, results[0])
check('request_batch: a 404 page is the documented query error', results[1].get('error') == 'Downloader error: http404', results[1])
check('request_batch: query ids look like the original ones', all(len(r['query']['id'].split('-')) == 2 for r in results), results)


async def aio_checks():
    stats = AggStats()
    # The client sends articleBodyRaw false by default; None leaves the server default (true).
    res = await request_raw([ArticleRequest(url=f'{site}/article', meta='lean'), ArticleRequest(url=f'{site}/article', meta='raw', articleBodyRaw=None),
                             ProductRequest(url=f'{site}/product', meta='product'), ArticleRequest(url='not a url', meta='bad')],
                            api_key=key, endpoint=endpoint, agg_stats=stats)
    by = {r['query']['userQuery']['meta']: r for r in res}
    check('aio: articleBodyRaw false leaves the HTML out', 'articleBodyRaw' not in by['lean']['article'], by['lean'])
    check('aio: the server default includes the HTML', '<p>' in by['raw']['article'].get('articleBodyRaw', ''), by['raw'])
    offers = by['product']['product'].get('offers') or [{}]
    check('aio: the product name and price', by['product']['product'].get('name') == product_name and offers[0].get('price') == price, by['product'])
    check('aio: a malformed URL is a non-billable query error', by['bad'].get('error') == 'malformed url' and not is_billable_error_msg(by['bad']['error']), by['bad'])
    check('aio: the client counts 3 billable responses of 4', (stats.n_billable_query_responses, stats.n_query_responses) == (3, 4), str(stats))

    try:
        await request_raw([{'url': f'{site}/article', 'pageType': 'article'}] * 101, api_key=key, endpoint=endpoint, handle_retries=False)
        check('aio: 101 queries are refused', False)
    except RequestError as e:
        check('aio: 101 queries: 413 queries-limit-reached', e.status == 413 and e.error_data().get('type', '').endswith('/queries-limit-reached.html'), str(e))

    try:
        await request_raw([ArticleRequest(url=f'{site}/article')], api_key=disabled_key, endpoint=endpoint, handle_retries=False)
        check('aio: a key without extraction is refused', False)
    except RequestError as e:
        check('aio: a key without extraction: the client sees ACCOUNT_DISABLED_ERROR_TYPE', e.status == 403 and e.error_data().get('type') == ACCOUNT_DISABLED_ERROR_TYPE, str(e))

asyncio.run(aio_checks())

# The command line tool: URLs from a file, batches over parallel connections, JSON lines out.
with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, 'urls.txt'), 'w') as f:
        f.write('\n'.join([f'{site}/product', f'{site}/product?again', f'{site}/status/500']) + '\n')
    out = os.path.join(tmp, 'out.jl')
    run = subprocess.run([sys.executable, '-m', 'autoextract', os.path.join(tmp, 'urls.txt'), '--page-type', 'product', '--api-key', key,
                          '--api-endpoint', endpoint, '--output', out, '--n-conn', '2', '--batch-size', '2', '--loglevel', 'WARNING'],
                         capture_output=True, text=True, timeout=120)
    check('python -m autoextract exits 0', run.returncode == 0, run.stderr[-2000:])
    with open(out) as f:
        lines = [json.loads(l) for l in f if l.strip()]
    names = sorted(l.get('product', {}).get('name', l.get('error', '')) for l in lines)
    check('python -m autoextract: two products and the 500', names == sorted([product_name, product_name, 'Downloader error: http500']), names)
print('all checks passed')
