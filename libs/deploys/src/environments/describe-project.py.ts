/**
 * Run by an environment's Python with the project egg's path: reads the egg's
 * `scrapy.settings` entry point (what scrapyd and sh_scrapy look for), then lists the
 * spiders with sh_scrapy's `shub-image-info` (the original platform's own command), which
 * prints `{"project_type": "scrapy", "spiders": [...]}`. It prints the settings module on
 * a line of its own first. A project that does not import exits 1 with the traceback,
 * printed once, on stderr.
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
os.environ['SCRAPY_SETTINGS_MODULE'] = module
sys.argv = ['shub-image-info']
logging.disable(logging.CRITICAL)
try:
    from sh_scrapy.crawl import shub_image_info
    shub_image_info()
except SystemExit:
    raise
except BaseException:
    traceback.print_exc()
    sys.exit(1)
`;
