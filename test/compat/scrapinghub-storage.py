#!/usr/bin/env python3
"""The official Python client (`scrapinghub`) against crawlhub's storage API.

Usage: scrapinghub-storage.py [STORAGE_URL [APIKEY [PROJECT_ID]]]
   (or env CRAWLHUB_STORAGE_URL, CRAWLHUB_APIKEY, CRAWLHUB_PROJECT)

Uses the client's low-level hubstorage API (HubstorageClient, the batch writer) and
the high-level ScrapinghubClient where it needs no job-control API. Prints one line
`ok <check>` per passed check; on the first failure prints `FAIL <check>: <why>`
plus the HTTP exchanges seen so far and exits 1. Only 127.0.0.1 URLs are used.
"""
import gzip
import json
import logging

import msgpack
import requests

from compat_support import (EXCHANGES, check, eq, exchanges_since, finish, no_upload_errors, now_ms, record_exchanges,
                            storage_clients)
from scrapinghub import ScrapinghubClient
from scrapinghub.client.exceptions import NotFound, Unauthorized
from scrapinghub.hubstorage import HubstorageClient
from scrapinghub.hubstorage.batchuploader import _encode_gzip
from scrapinghub.hubstorage.job import Logs

APIKEY, PROJECT, STORAGE, DASH, sc, hs = storage_clients(__doc__, body_prefix=120)

# ---------------------------------------------------------------- clients

hs_json = HubstorageClient(auth=APIKEY, endpoint=STORAGE, max_retries=0, use_msgpack=False)
record_exchanges(hs_json.session)
assert hs.use_msgpack, 'msgpack must be importable so the client reads msgpack'

P = PROJECT
KEY1 = '%d/1/1' % P   # low-level writes: items (several batches), logs, requests, metadata
KEY2 = '%d/1/2' % P   # high-level client writes
KEY3 = '%d/1/3' % P   # retried (duplicated) uploads
N_ITEMS = 2500
BATCH = 400


def make_item(i):
    # Field order matters: items keep the order they were written in.
    return {'n': i, 'name': 'item %d' % i, 'tags': ['t%d' % (i % 3)], 'nested': {'even': i % 2 == 0, 'f': i / 4.0},
            'uni': u'caf\u00e9 \u2603'}


ITEMS = [make_item(i) for i in range(N_ITEMS)]
job1 = hs.get_job(KEY1)

# ---------------------------------------------------------------- checks


def system_ts():
    ts = hs.server_timestamp()
    assert isinstance(ts, int), 'GET system/ts: expected a bare integer, got %r' % (ts,)
    assert abs(ts - now_ms()) < 60000, 'GET system/ts: %d is not close to now %d' % (ts, now_ms())


def items_write():
    job1.items.batch_size = BATCH
    mark = len(EXCHANGES)
    for i, item in enumerate(ITEMS):
        idx = job1.items.write(item)
        eq(idx, i, 'index returned by items.write()')
    job1.items.flush()
    no_upload_errors('items upload')
    posts = exchanges_since(mark, 'POST', '/items/%s' % KEY1)
    starts = [p[1].split('start=')[-1] for p in posts]
    eq(starts, [str(s) for s in range(0, N_ITEMS, BATCH)], 'start= of the uploaded batches')
    for p in posts:
        eq(p[2], 200, 'status of POST %s' % p[1])
        eq(p[4], b'', 'body of POST %s' % p[1])


def items_stats():
    stats = job1.items.stats()
    eq(stats['totals']['input_values'], N_ITEMS, 'items stats totals.input_values')
    eq(stats['counts'].get('n'), N_ITEMS, 'items stats counts.n')
    assert stats['totals']['input_bytes'] > 0, 'items stats totals.input_bytes: %r' % stats['totals']


def items_read_msgpack():
    mark = len(EXCHANGES)
    got = list(job1.items.list())
    get = exchanges_since(mark, 'GET', '/items/%s' % KEY1)
    assert get, 'no GET items request seen'
    ct = get[-1][3] or ''
    assert ct.startswith('application/x-msgpack'), \
        'GET items with Accept: application/x-msgpack answered content-type %r' % ct
    eq(len(got), N_ITEMS, 'number of items read (msgpack)')
    for i, (a, b) in enumerate(zip(got, ITEMS)):
        eq(a, b, 'item %d read back (msgpack)' % i)
        eq(list(a), list(b), 'field order of item %d (msgpack)' % i)


def items_read_keys():
    # iter_values = what the high-level client's items.iter() does: one streamed GET with meta=_key
    got = list(job1.items.iter_values())
    eq(len(got), N_ITEMS, 'number of items read with meta=_key')
    for i, a in enumerate(got):
        eq(a.get('_key'), '%s/%d' % (KEY1, i), '_key of item %d' % i)
        eq(list(a)[-1], '_key', 'position of _key in item %d (appended last)' % i)
        a.pop('_key')
        eq(a, ITEMS[i], 'item %d read with meta=_key' % i)


def items_read_json():
    job = hs_json.get_job(KEY1)
    mark = len(EXCHANGES)
    lines = list(job.items.iter_json())
    get = exchanges_since(mark, 'GET', '/items/%s' % KEY1)
    ct = get[-1][3] or ''
    assert ct.startswith('application/x-jsonlines'), 'GET items (JSON lines) answered content-type %r' % ct
    eq(len(lines), N_ITEMS, 'number of JSON lines')
    for i, line in enumerate(lines):
        eq(json.loads(line), dict(ITEMS[i], _key='%s/%d' % (KEY1, i)), 'JSON line %d' % i)
    # the client's own resume logic parses a line and takes its _key
    assert json.loads(lines[-1])['_key'] == '%s/%d' % (KEY1, N_ITEMS - 1)


def items_read_raw_msgpack():
    r = requests.get(STORAGE + 'items/' + KEY1, params={'meta': '_key', 'count': 3},
                     headers={'Accept': 'application/x-msgpack'}, auth=(APIKEY, ''))
    eq(r.status_code, 200, 'status')
    assert r.headers.get('content-type', '').startswith('application/x-msgpack'), r.headers.get('content-type')
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(r.content)
    got = list(unpacker)
    eq(got, [dict(ITEMS[i], _key='%s/%d' % (KEY1, i)) for i in range(3)],
       'concatenated msgpack maps (no array wrapper)')


def items_pagination():
    got = list(job1.items.list(count=3, start='%s/5' % KEY1, meta='_key'))
    eq([g['_key'] for g in got], ['%s/%d' % (KEY1, i) for i in (5, 6, 7)], 'count=3&start=<key>/5')
    got = list(job1.items.list(count=2, startafter='%s/5' % KEY1, meta='_key'))
    eq([g['_key'] for g in got], ['%s/%d' % (KEY1, i) for i in (6, 7)], 'count=2&startafter=<key>/5')
    got = list(job1.items.list(index=[5, 9], meta='_key'))
    eq([g['_key'] for g in got], ['%s/%d' % (KEY1, i) for i in (5, 9)], 'index=5&index=9')
    got = list(job1.items.list(7))
    eq(got, [ITEMS[7]], 'GET items/<job>/7')
    got = list(job1.items.list(count=2, meta=['_key', '_ts']))
    for g in got:
        assert isinstance(g.get('_ts'), int) and abs(g['_ts'] - now_ms()) < 600000, 'meta=_ts: %r' % (g,)
        eq(list(g)[-2:], ['_key', '_ts'], 'meta fields appended last')


def logs_write_read():
    job1.logs.batch_size = 7
    t0 = now_ms()
    expected = []
    for i in range(20):
        level = [logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR][i % 4]
        job1.logs.log('message %d' % i, level=level, ts=t0 + i, idx=i)
        expected.append({'time': t0 + i, 'level': level, 'message': 'message %d' % i, 'idx': i})
    job1.logs.info('info shortcut')
    job1.logs.warn('warn shortcut')
    job1.logs.flush()
    no_upload_errors('logs upload')
    got = list(job1.logs.list())  # msgpack
    eq(len(got), 22, 'number of log lines')
    for i, e in enumerate(expected):
        eq(got[i], e, 'log line %d' % i)
    eq((got[20]['message'], got[20]['level']), ('info shortcut', 20), 'logs.info() line')
    eq((got[21]['message'], got[21]['level']), ('warn shortcut', 30), 'logs.warn() line')
    keys = [json.loads(l)['_key'] for l in hs_json.get_job(KEY1).logs.iter_json()]
    eq(keys, ['%s/%d' % (KEY1, i) for i in range(22)], 'log _keys')
    stats = job1.logs.stats()
    eq(stats['totals']['input_values'], 22, 'logs stats totals.input_values')


def logs_append_mode():
    # What a job runner does: start writing at totals.input_values from /stats.
    logs = Logs(hs, KEY1, appendmode=True)
    logs.info('appended by runner')
    logs.flush()
    no_upload_errors('logs append upload')
    eq(EXCHANGES and [e[1] for e in EXCHANGES if e[0] == 'POST' and '/logs/' in e[1]][-1].split('start=')[-1], '22',
       'start= of the append-mode upload')
    got = list(job1.logs.list())
    eq(len(got), 23, 'number of log lines after append')
    eq(got[-1]['message'], 'appended by runner', 'appended line')
    eq(got[0]['message'], 'message 0', 'first line kept')


REQS = [
    # url, status, method, rs, parent, duration, ts, fp
    ('http://example.com/', 200, 'GET', 1024, None, 12, None, None),
    ('http://example.com/a', 404, 'GET', 10, 0, 3, None, 'fp-a'),
    ('http://example.com/b', 400, 'POST', 0, 0, 1, None, '1234'),
]


def requests_write_read():
    t0 = now_ms()
    for i, (url, status, method, rs, parent, duration, _, fp) in enumerate(REQS):
        idx = job1.requests.add(url, status, method, rs, parent, duration, t0 + i, fp)
        eq(idx, i, 'index returned by requests.add()')
    job1.requests.flush()
    no_upload_errors('requests upload')
    mark = len(EXCHANGES)
    got = list(job1.requests.list(meta='_key'))
    ct = exchanges_since(mark, 'GET', '/requests/')[-1][3] or ''
    assert ct.startswith('application/x-jsonlines'), 'requests are read as JSON lines, got content-type %r' % ct
    eq(len(got), len(REQS), 'number of requests')
    for i, (url, status, method, rs, parent, duration, _, fp) in enumerate(REQS):
        exp = {'_key': '%s/%d' % (KEY1, i), 'time': t0 + i, 'url': url, 'status': status, 'method': method,
               'rs': rs, 'duration': duration}
        if parent is not None:
            exp['parent'] = parent
        if fp is not None:
            exp['fp'] = fp
        eq(got[i], exp, 'request %d (null fields omitted)' % i)
        eq(list(got[i])[0], '_key', 'requests: _key comes first')
    stats = job1.requests.stats()
    eq(stats['totals']['input_values'], len(REQS), 'requests stats totals.input_values')


def metadata_lowlevel():
    # Job control (jobq push) is not there yet, so nothing created the job; the first
    # metadata write has to be a plain POST (the MutableMapping API GETs first).
    job1.metadata.apipost(jl={'meta1': 'data1', 'tags': []}, is_idempotent=True)
    job1.metadata.expire()
    eq(job1.metadata['meta1'], 'data1', 'metadata after POST jobs/<key>')
    job1.metadata['foo'] = 'bar'
    job1.metadata['num'] = 3
    job1.metadata['obj'] = {'a': [1, 2, {'b': None}]}
    job1.metadata['tags'] = ['t1', 't2']
    job1.metadata.save()
    job1.metadata.expire()
    eq(job1.metadata['foo'], 'bar', 'metadata foo after save/expire')
    eq(job1.metadata['num'], 3, 'metadata num')
    eq(job1.metadata['obj'], {'a': [1, 2, {'b': None}]}, 'metadata obj')
    eq(job1.metadata['meta1'], 'data1', 'metadata keeps keys not sent')
    eq(job1.metadata.liveget('tags'), ['t1', 't2'], 'GET jobs/<key>/tags')
    eq(job1.metadata.liveget('missing'), None, 'GET jobs/<key>/<missing field>')
    job1.update_metadata({'foo': None, 'close_reason': 'all-good'})
    eq(job1.metadata['foo'], None, 'a null value is stored')
    assert 'foo' in job1.metadata, 'a null value is stored, not deleted'
    eq(job1.metadata['close_reason'], 'all-good', 'update_metadata')
    del job1.metadata['foo']
    job1.metadata.save()
    job1.metadata.expire()
    assert 'foo' not in job1.metadata, 'DELETE jobs/<key>/foo removed the field: %r' % dict(job1.metadata)
    eq(job1.metadata.liveget('foo'), None, 'deleted field reads null')
    job1.metadata.apidelete('never-existed')  # DELETE of a missing field: 200


def hl_items_logs_requests():
    job = sc.get_job(KEY1)
    got = list(job.items.iter())
    eq(len(got), N_ITEMS, 'items.iter() count')
    eq(got[0], ITEMS[0], 'items.iter() strips _key')
    eq(got[-1], ITEMS[-1], 'items.iter() last item')
    eq(job.items.list(count=5), ITEMS[:5], 'items.list(count=5)')
    eq(job.items.list(count=2, offset=10), ITEMS[10:12], 'items.list(count=2, offset=10)')
    with_keys = job.items.list(count=2, meta=['_key'])
    eq([i['_key'] for i in with_keys], ['%s/0' % KEY1, '%s/1' % KEY1], 'items.list(meta=[_key])')
    chunks = list(job.items.list_iter(chunksize=1000))
    eq([len(c) for c in chunks], [1000, 1000, 500], 'items.list_iter(chunksize=1000) chunk sizes')
    eq([i for c in chunks for i in c], ITEMS, 'items.list_iter() content')
    chunks = list(job.items.list_iter(chunksize=2, start=5, count=3))
    eq(chunks, [ITEMS[5:7], ITEMS[7:8]], 'items.list_iter(chunksize=2, start=5, count=3)')
    logs = list(job.logs.iter())
    eq(len(logs), 23, 'logs.iter() count')
    eq(logs[0]['message'], 'message 0', 'logs.iter() first')
    assert '_key' not in logs[0], 'logs.iter() strips _key'
    reqs = list(job.requests.iter())
    eq([r['url'] for r in reqs], [r[0] for r in REQS], 'requests.iter()')
    eq(job.items.stats()['totals']['input_values'], N_ITEMS, 'high-level items.stats()')


def hl_write_and_metadata():
    job = sc.get_job(KEY2)
    job.metadata.set('owner', 'compat-test')  # POST jobs/<key>/owner (creates the job's metadata)
    eq(job.metadata.get('owner'), 'compat-test', 'metadata.get after set')
    job.metadata.update({'meta1': 'data1', 'n': 1})
    eq(job.metadata.get('meta1'), 'data1', 'metadata.get after update')
    eq(job.metadata.get('owner'), 'compat-test', 'update keeps other fields')
    job.metadata.set('n', 2)
    eq(job.metadata.get('n'), 2, 'metadata.set(n, 2)')
    meta = dict(job.metadata.list())
    eq({k: meta.get(k) for k in ('owner', 'meta1', 'n')}, {'owner': 'compat-test', 'meta1': 'data1', 'n': 2},
       'metadata.list()')
    job.metadata.delete('meta1')
    eq(job.metadata.get('meta1'), None, 'metadata.get after delete')
    assert 'meta1' not in dict(job.metadata.list()), 'metadata.delete removed the field'

    items = [{'i': i, 'x': 'v%d' % i} for i in range(5)]
    for i, it in enumerate(items):
        eq(job.items.write(it), i, 'high-level items.write() index')
    job.items.flush()
    job.logs.info('hello')
    job.logs.error('boom')
    job.logs.flush()
    job.requests.add('http://example.com/', 200, 'GET', 1, 5, now_ms(), fp='x')
    job.requests.flush()
    no_upload_errors('high-level uploads')
    eq(job.items.list(), items, 'high-level items read back')
    eq([(l['level'], l['message']) for l in job.logs.iter()], [(20, 'hello'), (40, 'boom')], 'high-level logs')
    eq([r['fp'] for r in job.requests.iter()], ['x'], 'high-level requests')


def retried_write():
    # What the batch uploader does when a POST times out: the same body, the same start=.
    job = hs.get_job(KEY3)
    batch1 = [json.dumps({'r': i}) for i in range(5)]
    batch2 = [json.dumps({'r': i}) for i in range(5, 8)]
    up = hs.batchuploader
    for _ in range(2):
        r = up._upload({'url': job.items.url, 'offset': 0, 'data': _encode_gzip(batch1), 'auth': hs.auth,
                        'content-encoding': 'gzip'})
        eq(r.status_code, 200, 'status of POST items?start=0')
    r = up._upload({'url': job.items.url, 'offset': 5, 'data': _encode_gzip(batch2), 'auth': hs.auth,
                    'content-encoding': 'gzip'})
    eq(r.status_code, 200, 'status of POST items?start=5')
    # and a retry of the second batch too, with a raw request
    r = requests.post(job.items.url, params={'start': 5}, data=gzip.compress(('\n'.join(batch2) + '\n').encode()),
                      headers={'content-encoding': 'gzip'}, auth=(APIKEY, ''))
    eq(r.status_code, 200, 'status of raw POST items?start=5')
    got = list(job.items.iter_values())
    eq([g['r'] for g in got], list(range(8)), 'items after retried uploads (no duplicates)')
    eq([g['_key'] for g in got], ['%s/%d' % (KEY3, i) for i in range(8)], '_keys after retried uploads')
    eq(job.items.stats()['totals']['input_values'], 8, 'stats after retried uploads')
    # logs, same protocol
    lines = [json.dumps({'time': now_ms(), 'level': 20, 'message': 'm%d' % i}) for i in range(3)]
    for _ in range(2):
        r = up._upload({'url': job.logs.url, 'offset': 0, 'data': _encode_gzip(lines), 'auth': hs.auth,
                        'content-encoding': 'gzip'})
        eq(r.status_code, 200, 'status of POST logs?start=0')
    eq([l['message'] for l in job.logs.list()], ['m0', 'm1', 'm2'], 'logs after retried upload')
    eq(job.logs.stats()['totals']['input_values'], 3, 'logs stats after retried upload')


def hl_logs_level_filter():
    # logs.list(level=...) sends filter=["level", ">=", [30]] (compat-notes 1.2: filters)
    job = sc.get_job(KEY1)
    logs = job.logs.list()
    warn = job.logs.list(level='WARNING')
    exp = [l for l in logs if l['level'] >= 30]
    eq(len(warn), len(exp), 'logs.list(level=WARNING) (filter=["level", ">=", [30]]) count')
    eq(warn, exp, 'logs.list(level=WARNING) lines')
    hits = job.logs.list(filter=[('message', 'contains', ['shortcut'])])
    eq([l['message'] for l in hits], ['info shortcut', 'warn shortcut'], 'logs.list(filter=[(message, contains, ...)])')
    big = job.items.list(filter=[('n', '>', [2495])])
    eq(big, ITEMS[2496:], 'items.list(filter=[(n, >, [2495])])')


def metadata_roundtrip_platform_fields():
    # JobMeta.save() and the high-level metadata.update() GET the whole metadata and POST
    # it back minus auth/_key/state (JobMeta.ignore_fields). For any real job that body
    # holds the fields the platform set (compat-notes 1.6), so POST jobs/<key> must
    # accept them (200) - what it stores for them is the server's business.
    from scrapinghub.hubstorage.job import JobMeta
    real_job = {'scheduled_by': 'admin', 'units': 1, 'state': 'pending', 'priority': 2, 'tags': [],
                'pending_time': now_ms(), 'spider_type': 'manual', 'spider': 'hs-test-spider',
                'api_url': DASH, 'project': P}
    meta = JobMeta(hs, KEY2, cached=dict(real_job))
    meta['user_field'] = 'saved'
    meta.save()
    eq(hs.get_job(KEY2).metadata.liveget('user_field'), 'saved', 'user field after save() of a full metadata dict')


def errors():
    try:
        sc.get_job(KEY1).items.get(99999)  # GET items/<job>/99999
    except NotFound:
        pass
    else:
        raise AssertionError('reading a missing item should raise NotFound (404)')
    bad = ScrapinghubClient('0' * 32, dash_endpoint=DASH, endpoint=STORAGE, max_retries=0)
    try:
        bad.get_job(KEY1).items.list(count=1)
    except Unauthorized:
        pass
    else:
        raise AssertionError('a wrong API key should raise Unauthorized (401)')
    finally:
        bad.close()


def main():
    check('system ts', system_ts)
    check('items: batch writer, %d items in batches of %d' % (N_ITEMS, BATCH), items_write)
    check('items: stats', items_stats)
    check('items: read back in order (msgpack)', items_read_msgpack)
    check('items: read back with _key (iter_values)', items_read_keys)
    check('items: read back as JSON lines (iter_json)', items_read_json)
    check('items: raw msgpack stream', items_read_raw_msgpack)
    check('items: count/start/startafter/index/item no/meta _ts', items_pagination)
    check('logs: write (several batches) and read back', logs_write_read)
    check('logs: append mode starts at stats totals.input_values', logs_append_mode)
    check('requests: add and read back', requests_write_read)
    check('metadata: low-level JobMeta save/expire/delete', metadata_lowlevel)
    check('high-level client: items/logs/requests reads', hl_items_logs_requests)
    check('high-level client: writes and metadata get/set/update/delete', hl_write_and_metadata)
    check('retried uploads (same start) give no duplicates', retried_write)
    check('errors: 404 NotFound, 401 Unauthorized', errors)
    check('filters: logs.list(level=...), filter=contains, items filter', hl_logs_level_filter)
    check('metadata: save() re-posting platform-set fields (as for any real job)', metadata_roundtrip_platform_fields)
    sc.close()
    hs.close()
    hs_json.close()
    finish('all scrapinghub checks passed')


if __name__ == '__main__':
    main()
