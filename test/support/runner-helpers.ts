import { join } from 'node:path';
import { basic } from './platform';

/** The example spider shipped in the repository. */
export const NODE_CRAWLER = join(__dirname, '../../examples/spiders/node-crawler/crawler.js');

/** A small HTTP client for one platform: dash forms, storage reads, and waiting for job states. */
export function client(urls: { dashUrl: string; storageUrl: string }, key: string) {
  const auth = { authorization: basic(key) };
  const dash = async (path: string, form?: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    const res = await fetch(`${urls.dashUrl}${path}`, form ? { method: 'POST', body, headers: auth } : { headers: auth });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const text = async (path: string) => {
    const res = await fetch(`${urls.storageUrl}${path}`, { headers: auth });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return res.text();
  };
  const lines = async (path: string) => (await text(path)).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const meta = async (key: string) => JSON.parse(await text(`/jobs/${key}`)) as Record<string, unknown>;
  const register = async (project: number, spider: string, command: string[], extra: { cwd?: string; env?: Record<string, string> } = {}) => {
    const res = await dash('/spiders/register.json', {
      project: String(project),
      spider,
      command: JSON.stringify(command),
      ...(extra.cwd ? { cwd: extra.cwd } : {}),
      ...(extra.env ? { env: JSON.stringify(extra.env) } : {}),
    });
    if (res.status !== 200) throw new Error(`register ${spider}: ${JSON.stringify(res.body)}`);
  };
  const run = async (project: number, spider: string, params: Record<string, string | string[]> = {}) => {
    const res = await dash('/run.json', { project: String(project), spider, ...params });
    if (res.status !== 200) throw new Error(`run ${spider}: ${JSON.stringify(res.body)}`);
    return res.body.jobid as string;
  };
  /** Polls the job's metadata until `until` holds (default: finished). */
  const waitFor = async (key: string, until: (m: Record<string, unknown>) => boolean = (m) => m.state === 'finished', timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = await meta(key);
      if (until(m)) return m;
      if (Date.now() > deadline) throw new Error(`job ${key} did not get there in ${timeoutMs} ms: ${JSON.stringify(m)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { dash, text, lines, meta, register, run, waitFor };
}

/** `node -e <script>` as a spider command. */
export const nodeScript = (script: string) => [process.execPath, '-e', script, '--'];

/** A script writing the FIFO line protocol (`out(cmd, obj)`), for test spiders. */
export const FIFO_PRELUDE = `const fs=require('fs');const fd=fs.openSync(process.env.SHUB_FIFO_PATH,'w');const out=(c,o)=>fs.writeSync(fd,c+' '+JSON.stringify(o)+'\\n');`;
