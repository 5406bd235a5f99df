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
import { Core, CoreModule, openCore } from '@crawlhub/platform';
import { parseSpidersFile, RegisterSpidersCommand, SPIDER_COMMANDS_VIEW, SpiderCommandError, SpiderCommandsView, SpiderRegistryModule } from '@crawlhub/runner';
import { createProjector } from '../projector/projector.app';
import { auditEntries, auditLine, auditTargetOf } from './audit';

const HELP = `crawlhub operations (same configuration as npm start: DATA_DIR, EVENT_LOG, VIEW_STORE...)

  crawlhub keys create --project N [--project M ...] [--label TEXT] [--grant CAP]
                         create an API key bound to projects; prints the key once
  crawlhub keys create --admin [--label TEXT]
                         create another admin key (sees every project, has every
                         capability)
  crawlhub keys grant <key-id> CAP     give a key a capability
  crawlhub keys withdraw <key-id> CAP  take it back
                         capabilities: ${KEY_CAPABILITIES.join(', ')} (browser: the fetch API;
                         extraction: the extraction API; deploy: shub deploy)
  crawlhub keys list     list keys (ids, projects, capabilities; never the secrets)
  crawlhub replay        drop every view and rebuild it from the event log's facts
                         (stop the platform's projector first); job requests of a log
                         written before decisions were facts are decided once, and
                         their facts appended (the upgrade path)
  crawlhub audit <project>/<spider>/<job> [--json]
  crawlhub audit <project> [--json]
                         the job's (or the project's) history from the log alone, oldest
                         first: each decision with its request, the decider's version,
                         actor, correlation and causation ids; a job's own writes too.
                         --json: one JSON object per line
  crawlhub spiders register --project N --file spiders.json
                         register (or replace) the commands the runners start for
                         spiders of project N; the file: {"spiders": {"<name>":
                         {"command": ["prog", "arg"...], "cwd": "dir", "env": {...}}}}
                         (cwd relative to the file's folder, which is the default)
  crawlhub spiders list --project N
                         the registered spiders of project N and their commands
  crawlhub usage extraction [--key KEY-ID] [--since YYYY-MM-DD]
                         extraction queries per day and key (done, billable, errors),
                         added up from the log's extraction results

Through npm: npm run crawlhub -- <command>`;

function option(args: string[], name: string): string[] {
  const values: string[] = [];
  args.forEach((a, i) => {
    if (a === name && args[i + 1] !== undefined) values.push(args[i + 1]);
    else if (a.startsWith(`${name}=`)) values.push(a.slice(name.length + 1));
  });
  return values;
}

function fail(message: string): never {
  console.error(`crawlhub: ${message}\n\n${HELP}`);
  process.exit(2);
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

async function createKey(core: Core, args: string[]): Promise<void> {
  const admin = args.includes('--admin');
  const projects = option(args, '--project').map((p) => {
    if (!/^\d{1,15}$/.test(p)) fail(`--project takes a project id (an integer), got ${JSON.stringify(p)}`);
    return Number(p);
  });
  if (!admin && projects.length === 0) fail('keys create needs --project N (repeatable) or --admin');
  const label = option(args, '--label')[0] ?? (admin ? 'admin' : `projects ${projects.join(',')}`);
  const capabilities = option(args, '--grant').map(capabilityOf);
  await withProjector(core, async ({ context, projector }) => {
    const { keyId, secret } = await whileApplying(projector, () =>
      context.get(CommandBus).execute<CreateAccessKeyCommand, { keyId: string; secret: string }>(new CreateAccessKeyCommand(projects, admin, label, { kind: 'system', id: 'cli' }, undefined, capabilities)),
    );
    console.log(`created ${keyId} (${admin ? 'admin' : `projects ${projects.join(', ')}`}${capabilities.length ? `; ${capabilities.join(', ')}` : ''}):\n${secret}`);
  });
}

async function setCapability(core: Core, action: 'grant' | 'withdraw', args: string[]): Promise<void> {
  const [keyId, value] = args;
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
    const started = Date.now();
    let lastPrint = 0;
    const applied = await projector.replay((topic, done, total) => {
      if (Date.now() - lastPrint > 1000 || done === total) {
        lastPrint = Date.now();
        console.log(`  ${topic}: ${done}/${total} events`);
      }
    });
    console.log(`replayed ${applied} events into fresh views in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
}

async function audit(core: Core, args: string[]): Promise<void> {
  const target = auditTargetOf(args.find((a) => !a.startsWith('--')));
  if (!target) fail('audit takes a project id like 1 or a job key like 1/2/3 (and --json)');
  const entries = await auditEntries(core.eventLog, target);
  if (args.includes('--json')) for (const a of entries) console.log(JSON.stringify(a));
  else if (entries.length === 0) console.log(`no events for ${target.job === null ? `project ${target.project}` : `job ${target.job}`}`);
  else for (const a of entries) console.log(auditLine(a));
}

async function extractionUsage(core: Core, args: string[]): Promise<void> {
  const [key] = option(args, '--key');
  const [since] = option(args, '--since');
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

function projectOption(args: string[]): number {
  const [p] = option(args, '--project');
  if (p === undefined || !/^\d{1,15}$/.test(p)) fail('spiders commands need --project N (an integer)');
  return Number(p);
}

async function registerSpiders(core: Core, args: string[]): Promise<void> {
  const project = projectOption(args);
  const [file] = option(args, '--file');
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

async function listSpiders(core: Core, args: string[]): Promise<void> {
  const project = projectOption(args);
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
  if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return;
  }
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message);
    throw e;
  }
  const core = await openCore(config);
  try {
    const [command, sub] = args;
    if (command === 'keys' && sub === 'create') await createKey(core, args.slice(2));
    else if (command === 'keys' && sub === 'list') await listKeys(core);
    else if (command === 'keys' && (sub === 'grant' || sub === 'withdraw')) await setCapability(core, sub, args.slice(2));
    else if (command === 'replay') await replay(core);
    else if (command === 'audit') await audit(core, args.slice(1));
    else if (command === 'spiders' && sub === 'register') await registerSpiders(core, args.slice(2));
    else if (command === 'spiders' && sub === 'list') await listSpiders(core, args.slice(2));
    else if (command === 'usage' && sub === 'extraction') await extractionUsage(core, args.slice(2));
    else fail(`unknown command: ${args.join(' ')}`);
  } finally {
    await core.close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
