import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_STACK, ENTRYPOINT_REQUIREMENT, STACKS } from '../libs/deploys/src/domain/stacks';
import { BENCH_AUTH, report, startPlatform } from './bench-support';

/** The Scrapy project of the deploy tests: one spider reading a page's titles, importing `inflection` from its requirements.txt. */
const PROJECT = join(__dirname, '../../test/compat/fixtures/shub-project');

/** A page of three book titles on 127.0.0.1, what the fixture spider reads. */
async function bookshop(): Promise<{ url: string; close(): void }> {
  const page = '<!doctype html><ul><li class="book">the little prince</li><li class="book">war and peace</li><li class="book">dune</li></ul>';
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/** `scrapyd/addversion.json` as shub sends it; resolves with the status line once the deploy answered. */
async function deploy(dashUrl: string, version: string, egg: Buffer, requirements: string): Promise<string> {
  const form = new FormData();
  form.append('project', '1');
  form.append('version', version);
  form.append('egg', new Blob([egg]), `project-${version}.egg`);
  form.append('requirements', new Blob([Buffer.from(requirements)]), 'requirements.txt');
  const res = await fetch(`${dashUrl}/scrapyd/addversion.json`, { method: 'POST', body: form, headers: { authorization: BENCH_AUTH } });
  const last = (await res.text()).trim().split('\n').pop() ?? '';
  if (!last.startsWith('{"status": "ok"')) throw new Error(`deploy ${version} failed: ${last}`);
  return last;
}

/** run.json of the fixture spider (`run` tells the jobs apart), then waits for its first item; answers the job key. */
async function firstItem(platform: { url: string; dashUrl: string }, site: string, run: string): Promise<string> {
  const res = await fetch(`${platform.dashUrl}/run.json`, { method: 'POST', body: new URLSearchParams({ project: '1', spider: 'books', start_url: site, run }), headers: { authorization: BENCH_AUTH } });
  const { jobid } = (await res.json()) as { jobid: string };
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const items = await fetch(`${platform.url}/items/${jobid}?count=1`, { headers: { authorization: BENCH_AUTH } });
    if ((await items.text()).trim() !== '') return jobid;
  }
  throw new Error(`job ${jobid} wrote no item in 10 minutes`);
}

function run(argv: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${argv.join(' ')} exited with ${code}: ${err}`))));
  });
}

/**
 * `npm run bench deploy`: from a deploy (scrapyd/addversion.json of the fixture project's
 * egg and requirements, as shub sends it) to the first item of a job of the version, with
 * the platform (API and runner in one process) as `npm start` runs it. Cold: the runner
 * builds the version's environment; beside it, the same environment built by hand (`python3
 * -m venv`, then one `pip install` of the stack, sh_scrapy and the requirements). Warm: a
 * new version with the same requirements (its environment cached); beside it, a bare
 * `scrapy crawl` of the same spider in the built environment. Both builds use the same pip
 * cache (BENCH_PIP_CACHE_DIR, default ~/.cache/crawlhub/pip), warmed first by an untimed
 * build by hand, so neither downloads more than the other.
 */
export async function deployBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'crawlhub-bench-deploy-'));
  const pipCache = process.env.BENCH_PIP_CACHE_DIR ?? join(process.env.CRAWLHUB_CACHE ?? join(homedir(), '.cache', 'crawlhub'), 'pip');
  const site = await bookshop();
  const requirements = readFileSync(join(PROJECT, 'requirements.txt'), 'utf8');
  const project = join(dir, 'project');
  cpSync(PROJECT, project, { recursive: true });
  execFileSync('python3', ['setup.py', '-q', 'bdist_egg', '-d', join(dir, 'egg')], { cwd: project, stdio: 'pipe' });
  const egg = readFileSync(join(dir, 'egg', readdirSync(join(dir, 'egg')).find((f) => f.endsWith('.egg'))!));
  // pip as the runner runs it (no bytecode written: PYTHONDONTWRITEBYTECODE), so the ratio is crawlhub's own overhead.
  const pipEnv = { ...process.env, PIP_CACHE_DIR: pipCache, PIP_DISABLE_PIP_VERSION_CHECK: '1', PYTHONNOUSERSITE: '1', PYTHONDONTWRITEBYTECODE: '1' };
  const platform = await startPlatform({ APP_ROLE: 'storage,dash,projector,runner', RUNNER_POLL_MS: '100', DEPLOY_PIP_CACHE_DIR: pipCache, LOG_LEVEL: 'warn' });
  try {
    // Baseline of the cold deploy: the same environment by hand. Built twice, timed the
    // second time, so that both it and the runner's build find the pip cache as warm.
    writeFileSync(join(dir, 'requirements.txt'), requirements);
    const buildByHand = async (venv: string) => {
      await run(['python3', '-m', 'venv', venv], dir, pipEnv);
      await run([join(venv, 'bin', 'pip'), 'install', '--no-input', STACKS[DEFAULT_STACK], ENTRYPOINT_REQUIREMENT, '-r', join(dir, 'requirements.txt')], dir, pipEnv);
    };
    await buildByHand(join(dir, 'warm-up'));
    const venv = join(dir, 'venv');
    let t0 = performance.now();
    await buildByHand(venv);
    const bareBuild = performance.now() - t0;

    t0 = performance.now();
    await deploy(platform.dashUrl, 'cold', egg, requirements);
    const coldDeployed = performance.now() - t0;
    await firstItem(platform, site.url, 'cold');
    const cold = performance.now() - t0;
    console.log(`deploy: the fixture Scrapy project (${DEFAULT_STACK}, requirements: ${requirements.trim().split('\n').join(', ')}), pip cache ${pipCache}`);
    report('cold: deploy to first item (environment built by the runner)', cold, 'ms', undefined, { name: 'python3 -m venv + pip install of the same requirements', value: bareBuild });
    console.log(`    of which the deploy answered ok after ${Math.round(coldDeployed).toLocaleString('en-US')} ms`);

    // Baseline of the warm deploy: the spider run by hand in a ready environment.
    t0 = performance.now();
    await run([join(venv, 'bin', 'scrapy'), 'crawl', 'books', '-a', `start_url=${site.url}`, '-o', join(dir, 'items.jl'), '-s', 'LOG_LEVEL=WARNING'], project, pipEnv);
    const bareCrawl = performance.now() - t0;

    t0 = performance.now();
    await deploy(platform.dashUrl, 'warm', egg, requirements);
    const warmDeployed = performance.now() - t0;
    await firstItem(platform, site.url, 'warm');
    const warm = performance.now() - t0;
    report('warm: deploy to first item (environment cached)', warm, 'ms', undefined, { name: 'a bare scrapy crawl of the spider, start to exit', value: bareCrawl });
    console.log(`    of which the deploy answered ok after ${Math.round(warmDeployed).toLocaleString('en-US')} ms`);
  } finally {
    await platform.stop();
    site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
