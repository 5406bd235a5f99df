import { readdirSync, readFileSync } from 'node:fs';

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // the process ended meanwhile
  }
}

/** The parent pid of `pid` (from /proc/<pid>/stat; the command name may hold spaces and parentheses). */
function parentOf(pid: number): number | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  if (stat === null) return null;
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** Every descendant of `rootPid` (children, their children...), read from /proc (Linux). */
export function descendantsOf(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const parent = parentOf(pid);
    if (parent === null) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const out: number[] = [];
  const pending = [...(children.get(rootPid) ?? [])];
  while (pending.length) {
    const pid = pending.pop()!;
    out.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * Memory (bytes) of `pid` and all its descendants, read from /proc (Linux): the sum of
 * their proportional set sizes (PSS: shared pages counted once across the processes that
 * share them; Chromium's processes share most of their code, so RSS would count it again
 * for every renderer and utility process).
 */
export function processTreeMemoryBytes(rootPid: number): number {
  let total = 0;
  for (const pid of [rootPid, ...descendantsOf(rootPid)]) {
    const pss = /^Pss:\s+(\d+) kB/m.exec(readOrNull(`/proc/${pid}/smaps_rollup`) ?? '');
    if (pss) total += Number(pss[1]) * 1024;
  }
  return total;
}
