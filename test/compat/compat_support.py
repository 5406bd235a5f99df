"""Support code shared by the compatibility scripts (scrapinghub-storage.py, -jobs.py, -collections.py, -frontier.py).

Arguments and environment, a watchdog, a record of the HTTP exchanges the clients make,
the batch uploader's errors, and `check`/`eq`: each check prints `ok <check>`, or
`FAIL <check>: <why>` plus the last HTTP exchanges. A script calls `start(...)` once its
arguments are parsed, runs its checks through `check`, and ends with `finish(...)`.
"""
import faulthandler
import logging
import os
import sys
import time
import traceback
from urllib.parse import urlsplit


def arg(i, env, default=None):
    if len(sys.argv) > i and sys.argv[i]:
        return sys.argv[i]
    return os.environ.get(env, default)


def require_local(url, kind=''):
    """Only 127.0.0.1 URLs are used; exits with a message naming `kind` ('storage ') otherwise."""
    if urlsplit(url).hostname != '127.0.0.1':
        sys.exit('only 127.0.0.1 %sURLs are allowed, got %s' % (kind, url))


def storage_clients(doc, body_prefix):
    """The common start of a script that talks to the storage API only: reads
    [STORAGE_URL [APIKEY [PROJECT_ID]]] (or env CRAWLHUB_STORAGE_URL, CRAWLHUB_APIKEY,
    CRAWLHUB_PROJECT; exits with `doc` when one is missing), requires a 127.0.0.1 URL, calls
    `start(body_prefix)` and makes a ScrapinghubClient and a HubstorageClient whose exchanges
    are recorded and whose uploads are retried briefly. Returns
    (APIKEY, PROJECT, STORAGE endpoint, DASH endpoint (never called), sc, hs)."""
    from scrapinghub import ScrapinghubClient
    from scrapinghub.hubstorage import HubstorageClient

    url = (arg(1, 'CRAWLHUB_STORAGE_URL') or '').rstrip('/')
    apikey = arg(2, 'CRAWLHUB_APIKEY')
    project = int(arg(3, 'CRAWLHUB_PROJECT', '2222222'))
    if not url or not apikey:
        sys.exit(doc)
    require_local(url, 'storage ')
    storage = url + '/'
    # Never called (no job-control API used); must still be a local address.
    dash = 'http://127.0.0.1:9/api/'

    start(body_prefix=body_prefix)

    # max_retries=0: idempotent requests are not retried, so a server error shows at once.
    sc = ScrapinghubClient(apikey, dash_endpoint=dash, endpoint=storage, max_retries=0)
    record_exchanges(sc._hsclient.session)
    short_upload_retries(sc._hsclient)
    hs = HubstorageClient(auth=apikey, endpoint=storage, max_retries=0)
    record_exchanges(hs.session)
    short_upload_retries(hs)
    return apikey, project, storage, dash, sc, hs


# ---------------------------------------------------------------- bookkeeping

# (method, path?query, status, content-type, body prefix[, credentials user])
EXCHANGES = []
FAILED = []  # names of the failed checks (keep-going mode only)

_settings = {'body_prefix': 120, 'record_user': False, 'keep_going': False}


class UploadErrors(logging.Handler):
    """The batch uploader only logs failed uploads (and retries them for hours)."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.messages = []

    def emit(self, record):
        msg = record.getMessage()
        if record.levelno >= logging.WARNING or msg.startswith('Retrying'):
            self.messages.append(msg)


UPLOAD_ERRORS = UploadErrors()


def start(body_prefix, record_user=False, keep_going=False):
    """Starts the watchdog and the capture of upload errors; sets how exchanges are recorded
    (`body_prefix` bytes of each body, the credentials user too if `record_user`) and whether
    a failed check ends the run (`keep_going`: report it, go on, exit 1 in `finish`)."""
    _settings.update(body_prefix=body_prefix, record_user=record_user, keep_going=keep_going)
    # Dump stacks and quit instead of hanging forever (the batch writer retries for hours).
    faulthandler.dump_traceback_later(int(os.environ.get('CRAWLHUB_COMPAT_TIMEOUT', '110')), exit=True)
    logging.getLogger('hubstorage.batchuploader').addHandler(UPLOAD_ERRORS)
    logging.getLogger('hubstorage.batchuploader').setLevel(logging.INFO)


def record_exchanges(session):
    """Wrap a requests.Session so every HTTP exchange the client makes is recorded."""
    original = session.request

    def request(method, url, *a, **kw):
        r = original(method, url, *a, **kw)
        u = urlsplit(r.url)
        body = b'' if kw.get('stream') else r.content[:_settings['body_prefix']]
        ex = (method.upper(), u.path + ('?' + u.query if u.query else ''), r.status_code,
              r.headers.get('content-type'), body)
        if _settings['record_user']:
            auth = kw.get('auth') or session.auth
            ex += (auth[0][:12] if isinstance(auth, tuple) and auth[0] else None,)
        EXCHANGES.append(ex)
        return r

    session.request = request


def short_upload_retries(client, retries=2):
    """The uploader retries a failed batch up to 200 times with >= 30 s pauses; keep it short."""
    client.batchuploader.worker_max_retries = retries
    client.batchuploader.worker_min_interval = 0


class CheckFailed(Exception):
    pass


def check(name, fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - report anything as a failed check
        print('FAIL %s: %s' % (name, exc if isinstance(exc, (AssertionError, CheckFailed)) else repr(exc)), flush=True)
        if not isinstance(exc, AssertionError):
            traceback.print_exc(file=sys.stdout)
        print('--- last HTTP exchanges (method, path, status, content-type, body prefix%s):'
              % (', user' if _settings['record_user'] else ''), flush=True)
        for ex in EXCHANGES[-15:]:
            print('   ', ex, flush=True)
        if not _settings['keep_going']:
            sys.exit(1)
        FAILED.append(name)
        return
    print('ok %s' % name, flush=True)


def finish(passed):
    """After the last check: stops the watchdog; prints the failed checks and exits 1, or `passed`."""
    faulthandler.cancel_dump_traceback_later()
    if FAILED:
        print('%d checks failed: %s' % (len(FAILED), '; '.join(FAILED)), flush=True)
        sys.exit(1)
    print(passed, flush=True)


def eq(actual, expected, what):
    assert actual == expected, '%s: expected %r, got %r' % (what, expected, actual)


def no_upload_errors(what):
    if UPLOAD_ERRORS.messages:
        raise CheckFailed('%s: batch uploader reported: %s' % (what, UPLOAD_ERRORS.messages[:3]))


def exchanges_since(n, method=None, path_contains=''):
    return [e for e in EXCHANGES[n:] if (method is None or e[0] == method) and path_contains in e[1]]


def now_ms():
    return int(time.time() * 1000)
