#!/usr/bin/env python3
"""The official Python client (`scrapinghub`) against crawlhub's collections API.

Usage: scrapinghub-collections.py [STORAGE_URL [APIKEY [PROJECT_ID]]]
   (or env CRAWLHUB_STORAGE_URL, CRAWLHUB_APIKEY, CRAWLHUB_PROJECT)

Uses the high-level ScrapinghubClient (project.collections: get_store, get_cached_store,
get_versioned_store, get_versioned_cached_store; set, get, iter, list, count, delete,
truncate, create_writer) and the low-level HubstorageClient collections resource. The
server is expected to run with COLLECTION_SCAN_BATCH=1000, so counts page with
nextstart. Prints one line `ok <check>` per passed check; on the first failure prints
`FAIL <check>: <why>` plus the HTTP exchanges seen so far and exits 1.
"""
import json

import requests

from compat_support import EXCHANGES, check, eq, exchanges_since, finish, no_upload_errors, storage_clients
from scrapinghub.client.exceptions import BadRequest, NotFound, ValueTooLarge

APIKEY, PROJECT, STORAGE, _, sc, hs = storage_clients(__doc__, body_prefix=120)

project = sc.get_project(PROJECT)
collections = project.collections
N_WRITER = 2500


def missing(fn, what):
    try:
        fn()
    except (KeyError, NotFound):
        return
    raise AssertionError('%s: expected a missing-key error (404)' % what)


def store_set_get():
    store = collections.get_store('compat_store')
    store.set({'_key': 'k1', 'value': 'v1'})
    store.set({'_key': 'k2', 'value': {'nested': [1, 2.5, None]}, 'other': u'caf\u00e9'})
    eq(store.get('k1'), {'value': 'v1'}, 'get(k1) (msgpack, without _key)')
    got = store.get('k2')
    eq(got, {'value': {'nested': [1, 2.5, None]}, 'other': u'caf\u00e9'}, 'get(k2)')
    eq(list(got), ['value', 'other'], 'field order of get(k2)')
    get = exchanges_since(0, 'GET', '/collections/%d/s/compat_store/k2' % PROJECT)
    assert get and (get[-1][3] or '').startswith('application/x-msgpack'), 'single get is read as msgpack: %r' % (get[-1:],)
    store.set({'_key': 'k1', 'value': 'v1-new'})
    eq(store.get('k1'), {'value': 'v1-new'}, 'get(k1) after overwrite')
    missing(lambda: store.get('nope'), 'get(nope)')


def store_iter():
    store = collections.get_store('compat_iter')
    for i in range(20):
        store.set({'_key': 'post_scan_test%d' % i, 'counter': i})
    keys = [r['_key'] for r in store.iter()]
    eq(keys, sorted('post_scan_test%d' % i for i in range(20)), 'iter(): keys in byte order, with _key')
    eq([r['_key'] for r in store.iter(prefix='post_scan_test1')],
       ['post_scan_test1'] + ['post_scan_test1%d' % i for i in range(10)], 'iter(prefix=...)')
    eq([r['_key'] for r in store.iter(key=['post_scan_test3', 'missing', 'post_scan_test1'])],
       ['post_scan_test1', 'post_scan_test3'], 'iter(key=[...]) (missing keys skipped)')
    eq([r['_key'] for r in store.iter(count=3)], ['post_scan_test0', 'post_scan_test1', 'post_scan_test10'], 'iter(count=3)')
    eq([r['_key'] for r in store.iter(prefix=['post_scan_test1', 'post_scan_test2'], prefixcount=1)],
       ['post_scan_test1', 'post_scan_test2'], 'iter(prefix=[..], prefixcount=1)')
    eq([r['counter'] for r in store.iter(prefix='post_scan_test1', filter=[('counter', '>', [15])])], [16, 17, 18, 19],
       'iter(filter=[(counter, >, [15])])')
    eq(list(store.iter(nodata=True, meta=['_key'], count=1)), [{'_key': 'post_scan_test0'}], 'iter(nodata, meta=[_key])')
    lst = store.list(startafter='post_scan_test8')
    eq([r['_key'] for r in lst], ['post_scan_test9'], 'list(startafter=...)')
    eq(store.count(), 20, 'count()')
    eq(store.count(prefix='post_scan_test1'), 11, 'count(prefix=...)')
    store.delete('post_scan_test0')
    store.delete(['post_scan_test1', 'post_scan_test2', 'never-existed'])
    eq(store.count(), 17, 'count() after delete')
    missing(lambda: store.get('post_scan_test1'), 'get() of a deleted key')


def other_types():
    for getter, ctype in [(collections.get_cached_store, 'cs'), (collections.get_versioned_store, 'vs'),
                          (collections.get_versioned_cached_store, 'vcs')]:
        col = getter('compat_types')
        col.set({'_key': 'k', 'type': ctype, 'n': 1})
        col.set({'_key': 'k', 'type': ctype, 'n': 2})
        eq(col.get('k'), {'type': ctype, 'n': 2}, '%s: get() returns the newest' % ctype)
        eq(col.count(), 1, '%s: count()' % ctype)
    r = requests.get('%scollections/%d/vs/compat_types/k/versions' % (STORAGE, PROJECT), auth=(APIKEY, ''))
    eq([json.loads(l)['n'] for l in r.text.splitlines()], [2, 1], 'vs: /versions extension, newest first')


def list_collections():
    got = collections.list()
    names = [(c['name'], c['type']) for c in got]
    for expected in [('compat_store', 's'), ('compat_iter', 's'), ('compat_types', 'cs'), ('compat_types', 'vs'), ('compat_types', 'vcs')]:
        assert expected in names, 'collections.list(): %r missing from %r' % (expected, names)
    eq(names, sorted(names, key=lambda nt: (nt[0].encode(), ['s', 'cs', 'vs', 'vcs'].index(nt[1]))), 'list order (name, then type)')


def batch_writer():
    col = collections.get_store('compat_writer')
    writer = col.create_writer(size=400)
    for i in range(N_WRITER):
        writer.write({'_key': 'w%05d' % i, 'value': i, 'even': i % 2 == 0})
    writer.close()
    no_upload_errors('collection batch writer')
    posts = [e for e in EXCHANGES if e[0] == 'POST' and '/collections/%d/s/compat_writer' % PROJECT in e[1]]
    assert posts and all(p[2] == 200 for p in posts), 'writer POSTs: %r' % posts[:3]
    mark = len(EXCHANGES)
    eq(col.count(), N_WRITER, 'count() over several nextstart pages (COLLECTION_SCAN_BATCH=1000)')
    counts = exchanges_since(mark, 'GET', '/count')
    assert len(counts) >= 3, 'count() should have paged with nextstart, saw %d requests' % len(counts)
    values = [r['value'] for r in col.iter()]
    eq(values, list(range(N_WRITER)), 'iter() after the batch writer')
    eq(col.count(filter=json.dumps(['even', '=', [True]])), N_WRITER // 2, 'count(filter=...) paged')


def truncate():
    col = collections.get_store('compat_writer')
    col.truncate()
    eq(list(col.iter()), [], 'iter() after truncate')
    names = [c['name'] for c in collections.list()]
    assert 'compat_writer' not in names, 'truncated collection still listed: %r' % names


def errors():
    col = collections.get_store('compat_errors')
    try:
        col.set({'value': 'no key'})
    except (ValueError, BadRequest) as e:
        assert 'missing value for _key field' in str(e), str(e)
    else:
        raise AssertionError('set() without _key should fail (400)')
    try:
        col.set({'_key': 'large_test', 'value': 'x' * 1024 ** 2})
    except (ValueError, ValueTooLarge) as e:
        assert 'Serialized value too large' in str(e), str(e)
    else:
        raise AssertionError('set() of a record over 1 MiB should fail (413)')
    try:
        col.set({'_key': 'inf', 'value': float('inf')})
    except (ValueError, BadRequest) as e:
        assert 'infinite' in str(e), str(e)
    else:
        raise AssertionError('set() with float(inf) should fail (400)')
    try:
        col.set({'_key': [], 'value': 1})
    except (ValueError, BadRequest):
        pass
    else:
        raise AssertionError('set() with _key [] should fail (400)')
    eq(list(col.iter()), [], 'nothing stored by the refused writes')


def hubstorage_level():
    cols = hs.get_project(PROJECT).collections
    store = cols.new_store('hs_store')
    store.set([{'_key': 'a', 'v': 1}, {'_key': 'b', 'v': 2}, {'_key': 'c', 'v': 3}])
    eq(store.get('b'), {'v': 2}, 'Collection.get(b)')
    eq(cols.count('s', 'hs_store'), 3, 'Collections.count(s, hs_store)')
    lines = list(cols.iter_json('s', 'hs_store'))
    eq([json.loads(l) for l in lines], [{'v': 1, '_key': 'a'}, {'v': 2, '_key': 'b'}, {'v': 3, '_key': 'c'}],
       'iter_json (meta=_key appended last)')
    cols.delete('s', 'hs_store', ['a', 'c'])
    eq([r['_key'] for r in cols.iter_values('s', 'hs_store')], ['b'], 'Collections.delete then iter_values')
    try:
        cols.get('s', 'hs_store', 'a')
    except KeyError:
        pass
    else:
        raise AssertionError('Collections.get of a deleted key should raise KeyError')
    cols.truncate('hs_store')
    eq(list(cols.iter_values('s', 'hs_store')), [], 'Collections.truncate')


def main():
    check('store: set/get/overwrite, missing key', store_set_get)
    check('store: iter with prefix/key/count/prefixcount/filter/nodata, count, delete', store_iter)
    check('cached, versioned and versioned cached stores', other_types)
    check('collections.list()', list_collections)
    check('create_writer: %d records in batches' % N_WRITER, batch_writer)
    check('truncate', truncate)
    check('errors: no _key, too large, inf, bad _key', errors)
    check('HubstorageClient collections', hubstorage_level)
    sc.close()
    hs.close()
    finish('all scrapinghub collections checks passed')


if __name__ == '__main__':
    main()
