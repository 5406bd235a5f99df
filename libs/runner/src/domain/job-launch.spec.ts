import { jobAuth, jobLaunch, launchJobOf, spiderArgv } from './job-launch';

describe('job launch', () => {
  it('encodes SHUB_JOBAUTH as the hex of "<key>:<token>"', () => {
    expect(jobAuth('1/2/3', 'some.jwt.token')).toBe('312f322f333a736f6d652e6a77742e746f6b656e');
  });

  it('passes spider arguments as sorted -a name=value pairs', () => {
    expect(spiderArgv({ b: '2', a: 'x=y z' })).toEqual(['-a', 'a=x=y z', '-a', 'b=2']);
    expect(spiderArgv({})).toEqual([]);
  });

  it('builds argv and environment: registered env over the passed-through one, SHUB_* over both', () => {
    const job = launchJobOf('7/1/4', {
      spider: 'books', spider_args: { page: '2', n: 5 }, tags: ['x', 'y'], job_settings: { DEPTH_LIMIT: 1 }, environment: { FOO: 'bar' }, units: 2, priority: 3,
    });
    const launch = jobLaunch(job, { spider: 'books', command: ['scrapy', 'crawl', 'books'], cwd: null, env: { PATH: '/opt/bin', SHUB_JOBKEY: 'spoofed', MINE: '1' } }, {
      token: 'tok', fifoPath: '/tmp/f', storageUrl: 'http://127.0.0.1:8002/', apiUrl: 'http://127.0.0.1:8001/api/', passEnv: { PATH: '/usr/bin', HOME: '/home/u' },
    });
    expect(launch.argv).toEqual(['scrapy', 'crawl', 'books', '-a', 'n=5', '-a', 'page=2']);
    expect(launch.env).toMatchObject({
      PATH: '/opt/bin', HOME: '/home/u', MINE: '1',
      SHUB_JOBKEY: '7/1/4', SHUB_JOBAUTH: jobAuth('7/1/4', 'tok'), SHUB_JOBNAME: 'books', SHUB_JOB_TAGS: 'x,y', SHUB_FIFO_PATH: '/tmp/f',
      SHUB_STORAGE: 'http://127.0.0.1:8002/', SHUB_APIURL: 'http://127.0.0.1:8001/api/', SCRAPY_JOB: '7/1/4', SCRAPY_SPIDER: 'books', SCRAPY_PROJECT_ID: '7',
      SHUB_SETTINGS: '{"job_settings":{"DEPTH_LIMIT":1}}',
    });
    expect(launch.env.FOO).toBeUndefined();
    expect(JSON.parse(launch.env.SHUB_JOB_DATA)).toEqual({
      key: '7/1/4', spider: 'books', auth: 'tok', spider_args: { page: '2', n: '5' }, settings: { DEPTH_LIMIT: 1 }, tags: ['x', 'y'], priority: 3, units: 2,
      api_url: 'http://127.0.0.1:8001/api/', spider_type: 'manual', job_env: { FOO: 'bar' }, job_name: 'books',
    });
  });
});
