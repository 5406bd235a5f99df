import { request } from 'node:http';

/** Prints one figure and, when a baseline of the same run is given, the ratio to it. */
export function report(name: string, value: number, unit: string, target?: number, baseline?: { name: string; value: number }): void {
  const parts = [`${name}: ${Math.round(value).toLocaleString('en-US')} ${unit}`];
  if (target !== undefined) parts.push(`target ${target.toLocaleString('en-US')} (${value >= target ? 'met' : 'NOT met'})`);
  if (baseline) parts.push(`${(value / baseline.value).toFixed(2)}x of ${baseline.name} (${Math.round(baseline.value).toLocaleString('en-US')} ${unit})`);
  console.log(`  ${parts.join('; ')}`);
}

/** A minimal keep-alive HTTP POST/GET used by the load generators (no fetch overhead). */
export function httpCall(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: Buffer): Promise<{ status: number; bytes: number; text?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) }, agent: keepAlive }, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => {
        bytes += d.length;
        if (res.statusCode !== 200) chunks.push(d);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, text: chunks.length ? Buffer.concat(chunks).toString() : undefined }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

import { Agent } from 'node:http';
const keepAlive = new Agent({ keepAlive: true, maxSockets: 64 });
