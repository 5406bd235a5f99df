#!/usr/bin/env python3
"""The official Python client (`scrapinghub`) against crawlhub's crawl frontier (HCF).

Usage: scrapinghub-frontier.py [STORAGE_URL [APIKEY [PROJECT_ID]]]
   (or env CRAWLHUB_STORAGE_URL, CRAWLHUB_APIKEY, CRAWLHUB_PROJECT)

Uses the high-level client (`project.frontiers`: frontiers, slots, queue, fingerprints,
flush, newcount) and the low-level hubstorage `project.frontier` (add, flush, newcount,
read, delete, delete_slot). Prints one line `ok <check>` per passed check; on the first
failure prints `FAIL <check>: <why>` plus the HTTP exchanges seen so far and exits 1.
Only 127.0.0.1 URLs are used.
"""
from compat_support import EXCHANGES, check, eq, exchanges_since, finish, no_upload_errors, storage_clients

APIKEY, PROJECT, _, _, sc, hs = storage_clients(__doc__, body_prefix=160)

project = sc.get_project(PROJECT)
frontiers = project.frontiers
site = frontiers.get('sites')
slot = site.get('example.com')


def empty_project():
    eq(frontiers.list(), [], 'frontiers.list() of a fresh project')
    eq(list(frontiers.iter()), [], 'frontiers.iter() of a fresh project')
    eq(site.list(), [], 'frontier.list() of an unknown frontier')
    eq(slot.q.list(), [], 'q.list() of an unknown slot')
    eq(slot.f.list(), [], 'f.list() of an unknown slot')


def queue_add_and_read():
    n = len(EXCHANGES)
    slot.q.add([{'fp': '/'}, {'fp': 'page1.html', 'p': 1, 'qdata': {'depth': 1}}, {'fp': 'page2.html', 'fdata': {'seen': True}}])
    slot.flush()
    no_upload_errors('q.add')
    posts = exchanges_since(n, 'POST', '/hcf/')
    assert posts, 'no POST to /hcf/ was made by flush()'
    eq(posts[-1][2], 200, 'status of the writer\'s POST')
    eq(posts[-1][3], 'application/json; charset=UTF-8', 'content type of the POST answer')
    assert '?start=' in posts[-1][1], 'the writer sends ?start=: %r' % (posts[-1][1],)
    eq(slot.newcount, 3, 'slot.newcount')
    batches = slot.q.list()
    eq([[r[0] for r in b['requests']] for b in batches], [['/', 'page2.html'], ['page1.html']], 'batches by priority')
    eq(batches[1]['requests'], [['page1.html', {'depth': 1}]], 'qdata comes back with the request')
    eq([b['id'][:2] for b in batches], ['00', '01'], 'batch ids start with the priority')
    # Reading does not consume.
    eq([b['id'] for b in slot.q.iter()], [b['id'] for b in batches], 'q.iter() serves the same batches again')


def duplicates_and_newcount():
    slot.q.add([{'fp': '/'}, {'fp': 'page3.html'}, {'fp': 'page3.html'}])
    slot.fingerprints.add(['page1.html', 'fp-only'])
    slot.flush()
    no_upload_errors('duplicates')
    eq(slot.newcount, 3 + 2, 'slot.newcount counts only new fingerprints (once per POST)')
    eq(site.newcount, 5, 'frontier.newcount')
    eq(frontiers.newcount, 5, 'frontiers.newcount')


def fingerprints():
    eq(slot.f.list(), ['/', 'fp-only', 'page1.html', 'page2.html', 'page3.html'], 'f.list() in byte order')
    eq(list(slot.fingerprints.iter()), slot.f.list(), 'fingerprints.iter()')
    eq(slot.f.list(start='page1.html', count=2), ['page1.html', 'page2.html'], 'f.list(start=, count=)')


def lists():
    other = site.get('other.org')
    other.q.add([{'fp': 'x'}])
    other.flush()
    frontiers.get('more').get('s1').q.add([{'fp': 'y'}])
    frontiers.flush()
    no_upload_errors('lists')
    eq(frontiers.list(), ['more', 'sites'], 'frontiers.list()')
    eq(site.list(), ['example.com', 'other.org'], 'frontier.list() (slots)')
    eq(list(site.iter()), ['example.com', 'other.org'], 'frontier.iter()')


def delete_batches():
    batches = slot.q.list()
    slot.q.delete(batches[0]['id'])
    eq([b['id'] for b in slot.q.list()], [b['id'] for b in batches[1:]], 'q.delete(<id>) removes one batch')
    slot.q.delete([b['id'] for b in batches[1:]] + ['unknown-id'])
    eq(slot.q.list(), [], 'q.delete([ids]) removes the rest; unknown ids are fine')
    eq(slot.f.list()[:1], ['/'], 'fingerprints stay after the batches are deleted')


def big_post_and_mincount():
    big = site.get('big')
    big.q.add([{'fp': 'u%03d' % i} for i in range(150)])
    big.flush()
    no_upload_errors('150 requests')
    eq([len(b['requests']) for b in big.q.list(mincount=1000)], [100, 50], 'one POST of 150 -> 100 + 50')
    eq([len(b['requests']) for b in big.q.list()], [100], 'default read: whole batches until 100 requests')
    eq([len(b['requests']) for b in big.q.list(mincount=101)], [100, 50], 'mincount=101')


def delete_slot():
    site.get('other.org').delete()
    eq(site.list(), ['big', 'example.com'], 'slot.delete() removes the slot')
    frontiers.get('more').get('s1').delete()
    eq(frontiers.list(), ['sites'], 'a frontier without slots disappears')
    site.get('never-existed').delete()


def hubstorage_frontier():
    hf = hs.get_project(PROJECT).frontier
    hf.add('hsf', 'slot1', [{'fp': 'a'}, {'fp': 'b', 'qdata': [1, 2]}, {'fp': 'a'}])
    hf.flush()
    no_upload_errors('hubstorage frontier add')
    eq(hf.newcount, 2, 'hubstorage frontier newcount')
    batches = list(hf.read('hsf', 'slot1'))
    eq([b['requests'] for b in batches], [[['a', None], ['b', [1, 2]]]], 'frontier.read()')
    eq(len(list(hf.read('hsf', 'slot1', mincount=1))), 1, 'frontier.read(mincount=1)')
    hf.delete('hsf', 'slot1', [b['id'] for b in batches])
    eq(list(hf.read('hsf', 'slot1')), [], 'frontier.delete() of the ids read')
    hf.delete_slot('hsf', 'slot1')
    eq(frontiers.get('hsf').list(), [], 'frontier.delete_slot()')
    hf.close()


def main():
    check('frontiers: an empty project has none', empty_project)
    check('queue: add (batch writer, ?start=), flush, newcount, read by priority, re-served', queue_add_and_read)
    check('newcount: known and repeated fingerprints, fingerprints.add', duplicates_and_newcount)
    check('fingerprints: f.list/iter in byte order, start/count', fingerprints)
    check('lists: frontiers.list, frontier.list/iter', lists)
    check('queue: delete one id, a list of ids', delete_batches)
    check('queue: 150 requests -> 100 + 50, mincount', big_post_and_mincount)
    check('slots: delete; an empty frontier disappears', delete_slot)
    check('hubstorage project.frontier: add/flush/newcount/read/delete/delete_slot', hubstorage_frontier)
    frontiers.close()
    sc.close()
    hs.close()
    finish('all scrapinghub frontier checks passed')


if __name__ == '__main__':
    main()
