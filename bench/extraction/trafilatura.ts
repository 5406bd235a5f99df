import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatasetName, pageFile } from '../extraction-datasets';

/** What trafilatura answered on one page. */
export interface PeerAnswer {
  body: string;
  headline?: string;
  author?: string;
  date?: string;
}

export type PeerRun = { ok: true; version: string; answers: Map<string, PeerAnswer>; seconds: number } | { ok: false; why: string };

/** The bench's files sit in bench/ (ts-node, jest) or under dist/bench/ (npm run bench): the source tree's copy either way. */
function benchFile(name: string): string {
  const candidates = [join(__dirname, '..', name), join(__dirname, '../../../bench', name)];
  return candidates.find((c) => existsSync(c)) ?? candidates[0];
}

/**
 * trafilatura on the same pages (provisioned once by bench/trafilatura-env.sh into a cached
 * venv); `seconds` is its own extraction time (decompression excluded, one thread). When it
 * cannot be installed, says why instead.
 */
export async function runTrafilatura(pages: { dataset: DatasetName; id: string; url: string }[]): Promise<PeerRun> {
  let python: string;
  try {
    const out = execFileSync('bash', [benchFile('trafilatura-env.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    python = /^TRAFILATURA_PYTHON=(.*)$/m.exec(out)![1];
  } catch (error) {
    const out = String((error as { stdout?: string }).stdout ?? '').trim();
    return { ok: false, why: out.replace(/^skipped:\s*/, '') || (error as Error).message };
  }
  const version = execFileSync(python, ['-c', 'import trafilatura; print(trafilatura.__version__)'], { encoding: 'utf8' }).trim();
  const child = spawn(python, [benchFile('extraction/trafilatura-run.py')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = new Map<string, PeerAnswer>();
  let seconds = 0;
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines.filter(Boolean)) {
      const answer = JSON.parse(line) as { id?: string; seconds?: number; body: string; headline?: string; author?: string; date?: string };
      if (answer.id === undefined) seconds = answer.seconds ?? 0;
      else answers.set(answer.id, { body: answer.body, headline: answer.headline ?? undefined, author: answer.author ?? undefined, date: answer.date ?? undefined });
    }
  });
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
  for (const page of pages) child.stdin.write(`${JSON.stringify({ id: `${page.dataset}/${page.id}`, url: page.url, file: pageFile(page.dataset, page.id) })}\n`);
  child.stdin.end();
  const code = await exited;
  if (code !== 0) return { ok: false, why: `trafilatura's runner exited with ${code}` };
  return { ok: true, version, answers, seconds };
}
