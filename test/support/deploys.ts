import { basic } from './platform';

export interface DeployRequest {
  project: number;
  version: string;
  /** The project egg's bytes. */
  egg: Buffer;
  /** A requirements.txt, as shub sends it. */
  requirements?: string;
  stack?: string;
}

/**
 * `POST scrapyd/addversion.json` as `shub deploy` sends it (multipart: project, version,
 * stack; files egg and requirements). The answer streams the build log: `onLine` sees
 * each line as it arrives; answers the status and every line (the last is the status line).
 */
export async function addVersion(dashUrl: string, key: string, d: DeployRequest, onLine: (line: string) => void = () => undefined): Promise<{ status: number; lines: string[] }> {
  const form = new FormData();
  form.append('project', String(d.project));
  form.append('version', d.version);
  if (d.stack) form.append('stack', d.stack);
  form.append('egg', new Blob([d.egg]), `project-${d.version}.egg`);
  if (d.requirements !== undefined) form.append('requirements', new Blob([Buffer.from(d.requirements)]), 'requirements.txt');
  const res = await fetch(`${dashUrl}/scrapyd/addversion.json`, { method: 'POST', body: form, headers: { authorization: basic(key) } });
  const lines: string[] = [];
  let rest = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    rest += decoder.decode(chunk, { stream: true });
    const parts = rest.split('\n');
    rest = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      onLine(line);
    }
  }
  if (rest !== '') {
    lines.push(rest);
    onLine(rest);
  }
  return { status: res.status, lines };
}

/** The status line shub looks for at the end of a successful deploy, as the original writes it. */
export const deployedLine = (project: number, version: string, spiders: number) => `{"status": "ok", "project": ${project}, "version": "${version}", "spiders": ${spiders}}`;
