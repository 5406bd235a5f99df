import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';

/**
 * The runner's id when RUNNER_ID is not set: created on the first start and kept in a
 * file, so a restarted runner knows its own jobs again (and finishes the orphans).
 */
export function persistentRunnerId(file: string): string {
  if (existsSync(file)) {
    const id = readFileSync(file, 'utf8').trim();
    if (id) return id;
  }
  mkdirSync(dirname(file), { recursive: true });
  const host = hostname().replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 48) || 'runner';
  const id = `${host}-${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(file, `${id}\n`, { flag: 'wx' });
    return id;
  } catch {
    // Another process created it first: use that one.
    return readFileSync(file, 'utf8').trim();
  }
}
