import 'reflect-metadata';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import { ACCESS_KEYS_VIEW, AccessKeysView, CreateAccessKeyCommand, SetKeyCapabilitiesCommand, UnknownKeyError } from '@crawlhub/access';
import { ConfigError, loadConfig } from '@crawlhub/config';
import {
  EXTRACTION_COMPLETED, EXTRACTION_RESULTS_TOPIC, ExtractionCompleted, extractionEventProblem, KEY_CAPABILITIES, KeyCapability,
} from '@crawlhub/contracts';
import { ExtractionUsage } from '@crawlhub/extraction-batches';
import { LoggedEvent } from '@crawlhub/eventlog';
import { FrontierAuditEntry, frontierAuditEntries, frontierAuditLine } from '@crawlhub/frontier';
import { AuditEntry, auditEntries, auditLine, auditTargetOf } from '@crawlhub/jobs';
import { Core, CoreModule, openCore } from '@crawlhub/platform';
import { SESSION_AUDIT_TARGET, sessionAuditEntries, sessionAuditLine } from '@crawlhub/proxy-sessions';
import { parseSpidersFile, RegisterSpidersCommand, SPIDER_COMMANDS_VIEW, SpiderCommandError, SpiderCommandsView, SpiderRegistryModule } from '@crawlhub/runner';
import { createProjector } from '../projector/projector.app';
import { CliCommand, CliUsageError, ParsedCommandLine, parseCommandLine } from './command-line';

type CommandArgs = Pick<ParsedCommandLine<CliCommand>, 'values' | 'positionals'>;
type RunnableCommand = CliCommand & { run: (core: Core, args: CommandArgs) => Promise<void> };

/** Every command: its words, usage, options and positional arguments (parsed strictly: an unknown option is an error). */
const COMMANDS: RunnableCommand[] = [
  {
    words: ['keys', 'create'],
    usage: `crawlhub keys create --project N [--project M ...] [--label TEXT] [--grant CAP ...]
                       create an API key bound to projects; prints the key once
crawlhub keys create --admin [--label TEXT]
                       create another admin key (sees every project, has every
                       capability)`,
    options: { project: { type: 'string', multiple: true }, admin: { type: 'boolean' }, label: { type: 'string' }, grant: { type: 'string', multiple: true } },
    run: (core: Core, args: CommandArgs) => createKey(core, args),
  },
  ...(['grant', 'withdraw'] as const).map((action) => ({
    words: ['keys', action],
    usage:
      action === 'grant'
        ? `crawlhub keys grant <key-id> CAP     give a key a capability
                       capabilities: ${KEY_CAPABILITIES.join(', ')} (browser: the fetch API;
                       extraction: the extraction API; deploy: shub deploy)`
        : `crawlhub keys withdraw <key-id> CAP  take it back`,
    positionals: ['<key-id>', 'CAP'],
    run: (core: Core, { positionals }: CommandArgs) => setCapability(core, action, positionals),
  })),
  {
    words: ['keys', 'list'],
    usage: `crawlhub keys list     list keys (ids, projects, capabilities; never the secrets)`,
    run: (core: Core) => listKeys(core),
  },
  {
    words: ['replay'],
    usage: `crawlhub replay        drop every view and rebuild it from the event log's facts
                       (stop the platform's projector first); job, frontier and proxy session
                       requests of a log written before decisions were facts are
                       decided once, and their facts appended (the upgrade path)`,
    run: (core: Core) => replay(core),
  },
  {
    words: ['audit'],
    usage: `crawlhub audit <project>/<spider>/<job> [--json]
crawlhub audit <project> [--json]
crawlhub audit <key-id> [--json]
                       the job's (or the project's, or the key's proxy sessions')
                       history from the log alone, oldest first: each decision with
                       its request, the decider's version, actor, correlation and
                       causation ids; a job's own writes, a project's crawl frontier
                       decisions, a key's session touches and deletes too.
                       --json: one JSON object per line`,
    options: { json: { type: 'boolean' } },
    positionals: ['<project>[/<spider>/<job>] or <key-id>'],
    run: (core: Core, { values, positionals }: CommandArgs) => audit(core, positionals[0], values.json === true),
  },
  {
    words: ['spiders', 'register'],
    usage: `crawlhub spiders register --project N --file spiders.json
                       register (or replace) the commands the runners start for
                       spiders of project N; the file: {"spiders": {"<name>":
                       {"command": ["prog", "arg"...], "cwd": "dir", "env": {...}}}}
                       (cwd relative to the file's folder, which is the default)`,
    options: { project: { type: 'string' }, file: { type: 'string' } },
    run: (core: Core, args: CommandArgs) => registerSpiders(core, args),
  },
  {
    words: ['spiders', 'list'],
    usage: `crawlhub spiders list --project N
                       the registered spiders of project N and their commands`,
    options: { project: { type: 'string' } },
    run: (core: Core, args: CommandArgs) => listSpiders(core, args),
  },
  {
    words: ['usage', 'extraction'],
    usage: `crawlhub usage extraction [--key KEY-ID] [--since YYYY-MM-DD]
                       extraction queries per day and key (done, billable, errors),
                       added up from the log's extraction results`,
    options: { key: { type: 'string' }, since: { type: 'string' } },
    run: (core: Core, args: CommandArgs) => extractionUsage(core, args),
  },
];

const HELP = `crawlhub operations (same configuration as npm start: DATA_DIR, EVENT_LOG, VIEW_STORE...)

${COMMANDS.map((c) => c.usage.replace(/^/gm, '  ')).join('\n')}

  crawlhub <command> --help   the usage of one command

Through npm: npm run crawlhub -- <command>`;

/** The values of a string option (none when absent). */
function strings(values: CommandArgs['values'], name: string): string[] {
  const value = values[name];
  return value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);
}

/** Refuses the command line: main prints the message with the command's usage and exits 2. */
function fail(message: string): never {
  throw new CliUsageError(message);
}

async function withProjector<T>(core: Core, run: (ctx: Awaited<ReturnType<typeof createProjector>>) => Promise<T>): Promise<T> {
  const ctx = await createProjector(core, ['error', 'warn']);
  try {
    // A data dir where the platform never ran has no topics yet.
    await core.eventLog.ensureTopics(ctx.projector.topics());
    return await run(ctx);
  } finally {
    await ctx.context.close();
  }
}

type CliProjector = Awaited<ReturnType<typeof createProjector>>['projector'];

/** Runs `write` while this process applies new events too, so a command answers even when no platform is running. */
async function whileApplying<T>(projector: CliProjector, write: () => Promise<T>): Promise<T> {
  const pump = setInterval(() => void projector.catchUp(projector.topics(), () => undefined).catch(() => undefined), 50);
  try {
    return await write();
  } finally {
    clearInterval(pump);
  }
}

function capabilityOf(value: string | undefined): KeyCapability {
  if (!KEY_CAPABILITIES.includes(value as KeyCapability)) fail(`unknown capability ${JSON.stringify(value)}: one of ${KEY_CAPABILITIES.join(', ')}`);
  return value as KeyCapability;
}

async function createKey(core: Core, { values }: CommandArgs): Promise<void> {
  const admin = values.admin === true;
  const projects = strings(values, 'project').map((p) => {
    if (!/^\d{1,15}$/.test(p)) fail(`--project takes a project id (an integer), got ${JSON.stringify(p)}`);
    return Number(p);
  });
  if (!admin && projects.length === 0) fail('keys create needs --project N (repeatable) or --admin');
  const label = strings(values, 'label')[0] ?? (admin ? 'admin' : `projects ${projects.join(',')}`);
  const capabilities = strings(values, 'grant').map(capabilityOf);
  await withProjector(core, async ({ context, projector }) => {
    const { keyId, secret } = await whileApplying(projector, () =>
      context.get(CommandBus).execute<CreateAccessKeyCommand, { keyId: string; secret: string }>(new CreateAccessKeyCommand(projects, admin, label, { kind: 'system', id: 'cli' }, undefined, capabilities)),
    );
    console.log(`created ${keyId} (${admin ? 'admin' : `projects ${projects.join(', ')}`}${capabilities.length ? `; ${capabilities.join(', ')}` : ''}):\n${secret}`);
  });
}

async function setCapability(core: Core, action: 'grant' | 'withdraw', [keyId, value]: string[]): Promise<void> {
  if (!keyId || !/^key-[0-9a-f]{12}$/.test(keyId)) fail(`keys ${action} takes a key id (key-… from keys list), then a capability`);
  const capability = capabilityOf(value);
  await withProjector(core, async ({ context, projector }) => {
    await projector.catchUp(projector.topics(), () => undefined);
    try {
      const now = await whileApplying(projector, () =>
        context.get(CommandBus).execute<SetKeyCapabilitiesCommand, KeyCapability[]>(new SetKeyCapabilitiesCommand(keyId, action === 'grant' ? [capability] : [], action === 'withdraw' ? [capability] : [], { kind: 'system', id: 'cli' })),
      );
      console.log(`${keyId}: capabilities ${now.join(', ') || '(none)'}`);
    } catch (e) {
      if (e instanceof UnknownKeyError) fail(e.message);
      throw e;
    }
  });
}

async function listKeys(core: Core): Promise<void> {
  await withProjector(core, async ({ context, projector }) => {
    await projector.catchUp(projector.topics(), () => undefined);
    const keys = await context.get<AccessKeysView>(ACCESS_KEYS_VIEW).list();
    if (keys.length === 0) console.log('no keys yet (the admin key is created on the first npm start)');
    for (const k of keys) console.log(`${k.keyId}\t${k.admin ? 'admin' : `projects ${k.projects.join(',')}`}\t${k.admin ? 'all capabilities' : k.capabilities.join(',') || '-'}\t${k.label}`);
  });
}

async function replay(core: Core): Promise<void> {
  await withProjector(core, async ({ projector }) => {
    const started = performance.now();
    let lastPrint = 0;
    const applied = await projector.replay((topic, done, total) => {
      if (performance.now() - lastPrint > 1000 || done === total) {
        lastPrint = performance.now();
        console.log(`  ${topic}: ${done}/${total} events`);
      }
    });
    console.log(`replayed ${applied} events into fresh views in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
}

async function audit(core: Core, what: string, json: boolean): Promise<void> {
  if (SESSION_AUDIT_TARGET.test(what)) return auditSessions(core, what, json);
  const target = auditTargetOf(what);
  if (!target) fail('audit takes a project id like 1, a job key like 1/2/3 or a key id like key-0123456789ab (and --json)');
  const jobs = await auditEntries(core.eventLog, target);
  // A project's history has its crawl frontier decisions too.
  const frontier = target.job === null ? await frontierAuditEntries(core.eventLog, target.project) : [];
  const entries: (AuditEntry | FrontierAuditEntry)[] = [...jobs, ...frontier].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  if (json) for (const a of entries) console.log(JSON.stringify(a));
  else if (entries.length === 0) console.log(`no events for ${target.job === null ? `project ${target.project}` : `job ${target.job}`}`);
  else for (const a of entries) console.log('slot' in a ? frontierAuditLine(a) : auditLine(a));
}

async function auditSessions(core: Core, user: string, json: boolean): Promise<void> {
  const entries = await sessionAuditEntries(core.eventLog, user);
  if (json) for (const a of entries) console.log(JSON.stringify(a));
  else if (entries.length === 0) console.log(`no proxy session events for ${user}`);
  else for (const a of entries) console.log(sessionAuditLine(a));
}

async function extractionUsage(core: Core, { values }: CommandArgs): Promise<void> {
  const [key] = strings(values, 'key');
  const [since] = strings(values, 'since');
  if (since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(since)) fail('--since takes a day like 2026-11-21');
  await core.eventLog.ensureTopics([EXTRACTION_RESULTS_TOPIC]);
  const usage = new ExtractionUsage();
  const from = since === undefined ? 0 : Date.parse(`${since}T00:00:00Z`);
  for (let partition = 0; partition < core.eventLog.partitionCount(EXTRACTION_RESULTS_TOPIC); partition++) {
    for await (const e of partitionFrom(core, EXTRACTION_RESULTS_TOPIC, partition)) {
      const d = e.event.data as ExtractionCompleted;
      if (e.event.type !== EXTRACTION_COMPLETED || extractionEventProblem(e.event) !== null || e.event.occurredAt < from || (key !== undefined && d.user !== key)) continue;
      usage.add(d, e.event.occurredAt);
    }
  }
  const rows = usage.report();
  if (rows.length === 0) return console.log('no extraction queries');
  console.log(`${'day'.padEnd(10)}  ${'key'.padEnd(20)}  ${'queries'.padStart(8)}  ${'billable'.padStart(8)}  ${'errors'.padStart(8)}`);
  for (const r of rows) console.log(`${r.day}  ${r.user.padEnd(20)}  ${String(r.queries).padStart(8)}  ${String(r.billable).padStart(8)}  ${String(r.errors).padStart(8)}`);
}

/** Every event of one partition, oldest first. */
async function* partitionFrom(core: Core, topic: string, partition: number): AsyncGenerator<LoggedEvent> {
  for (let from = 0; ; ) {
    const page = await core.eventLog.read(topic, partition, from, 1000);
    if (page.length === 0) return;
    yield* page;
    from = page[page.length - 1].offset + 1;
  }
}

/** The spider registry's commands, for the CLI. */
@Module({})
class SpidersCliModule {
  static with(core: Core): DynamicModule {
    return { module: SpidersCliModule, imports: [CoreModule.with(core), SpiderRegistryModule] };
  }
}

function projectOption(values: CommandArgs['values']): number {
  const [p] = strings(values, 'project');
  if (p === undefined || !/^\d{1,15}$/.test(p)) fail('spiders commands need --project N (an integer)');
  return Number(p);
}

async function registerSpiders(core: Core, { values }: CommandArgs): Promise<void> {
  const project = projectOption(values);
  const [file] = strings(values, 'file');
  if (!file) fail('spiders register needs --file spiders.json');
  const path = resolve(file);
  let specs;
  try {
    specs = parseSpidersFile(readFileSync(path, 'utf8'), dirname(path), resolve);
  } catch (e) {
    if (e instanceof SpiderCommandError || (e as NodeJS.ErrnoException).code === 'ENOENT') fail(`${path}: ${(e as Error).message}`);
    throw e;
  }
  await withProjector(core, async ({ projector }) => {
    const context = await NestFactory.createApplicationContext(SpidersCliModule.with(core), { logger: ['error', 'warn'] });
    try {
      await whileApplying(projector, () => context.get(CommandBus).execute(new RegisterSpidersCommand(project, specs, { kind: 'system', id: 'cli' })));
      for (const s of specs) console.log(`registered ${s.spider} in project ${project}: ${JSON.stringify(s.command)} in ${s.cwd}`);
    } finally {
      await context.close();
    }
  });
}

async function listSpiders(core: Core, { values }: CommandArgs): Promise<void> {
  const project = projectOption(values);
  await withProjector(core, async ({ projector }) => {
    await projector.catchUp(projector.topics(), () => undefined);
    const context = await NestFactory.createApplicationContext(SpidersCliModule.with(core), { logger: ['error', 'warn'] });
    try {
      const spiders = await context.get<SpiderCommandsView>(SPIDER_COMMANDS_VIEW).list(project);
      if (spiders.length === 0) console.log(`no spider registered in project ${project}`);
      for (const s of spiders) console.log(`${s.spider}\t${JSON.stringify(s.command)}\t${s.cwd ?? '(a fresh directory per job)'}\tenv: ${Object.keys(s.env).join(',') || '-'}`);
    } finally {
      await context.close();
    }
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.length === 0 || args[0] === '--help' || args[0] === '-h') {
    console.log(HELP);
    return;
  }
  let usage = HELP;
  try {
    const { command, values, positionals, help } = parseCommandLine(COMMANDS, args);
    usage = command.usage;
    if (help) return console.log(usage);
    const core = await openCore(loadConfig());
    try {
      await command.run(core, { values, positionals });
    } finally {
      await core.close();
    }
  } catch (e) {
    if (!(e instanceof CliUsageError || e instanceof ConfigError)) throw e;
    console.error(`crawlhub: ${e.message}\n\n${e instanceof CliUsageError ? (e.usage ?? usage) : HELP}`);
    process.exitCode = 2;
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
