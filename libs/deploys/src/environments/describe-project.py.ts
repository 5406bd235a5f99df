/**
 * Run by an environment's Python with the project egg's path (put first on sys.path, as
 * PYTHONPATH does for jobs): reads the egg's
 * `scrapy.settings` entry point (what scrapyd and sh_scrapy look for), then lists the
 * spiders with sh_scrapy's `shub-image-info` (the original platform's own command), which
 * prints `{"project_type": "scrapy", "spiders": [...]}`. It prints the settings module on
 * a line of its own first. A project that does not import exits 1 with the traceback of
 * its own frames (those in the egg), printed once, on stderr.
 */
export const DESCRIBE_PROJECT_PY = String.raw`
import configparser, logging, os, sys, traceback, zipfile
try:
    with zipfile.ZipFile(sys.argv[1]) as egg:
        text = egg.read('EGG-INFO/entry_points.txt').decode('utf-8')
    points = configparser.ConfigParser()
    points.read_string(text)
    module = points.get('scrapy', 'settings', fallback='').split(':')[0].strip()
except (KeyError, zipfile.BadZipFile, configparser.Error, UnicodeDecodeError) as e:
    module, problem = '', str(e)
if not module:
    print("The project egg has no 'scrapy' entry point named 'settings' (setup.py: entry_points={'scrapy': ['settings = myproject.settings']})", file=sys.stderr)
    sys.exit(2)
print('CRAWLHUB_SETTINGS_MODULE=' + module, flush=True)
sys.path.insert(0, sys.argv[1])
os.environ['SCRAPY_SETTINGS_MODULE'] = module
sys.argv = ['shub-image-info']
logging.disable(logging.CRITICAL)
try:
    from sh_scrapy.crawl import shub_image_info
    shub_image_info()
except SystemExit:
    raise
except BaseException as e:
    # The project's own frames (the egg's): Scrapy's and importlib's would push them out of
    # the last 30 lines shub prints.
    frames = [f for f in traceback.extract_tb(e.__traceback__) if '.egg/' in f.filename] or traceback.extract_tb(e.__traceback__)[-3:]
    print('Traceback (most recent call last):', file=sys.stderr)
    print(''.join(traceback.format_list(frames)) + ''.join(traceback.format_exception_only(type(e), e)), end='', file=sys.stderr)
    sys.exit(1)
`;
