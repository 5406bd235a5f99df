import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ACCESS_KEYS_VIEW, AccessKey, AccessKeysView, CreateAccessKeyCommand, Principal, RevokeAccessKeyCommand, SetKeyCapabilitiesCommand, UnknownKeyError,
} from '@crawlhub/access';
import { KEY_CAPABILITIES, KeyCapability } from '@crawlhub/contracts';
import { actorOf, ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import type { DashKey } from '@crawlhub/wire';

const KEY_ID = /^key-[0-9a-f]{12}$/;
const MAX_LABEL = 200;

function sendDash(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.status(200).header('content-type', 'application/json').header('cache-control', 'no-store').send(JSON.stringify(value));
}

/** A key as the API shows it: its id, never its secret (the log holds only a digest). */
function keyObject(k: AccessKey): DashKey {
  return { key_id: k.keyId, label: k.label, admin: k.admin, projects: k.projects, capabilities: k.admin ? [...KEY_CAPABILITIES] : k.capabilities };
}

function capabilityOf(value: string | null): KeyCapability {
  if (!KEY_CAPABILITIES.includes(value as KeyCapability)) throw new ApiError(400, `Invalid capability ${JSON.stringify(value ?? '')}: one of ${KEY_CAPABILITIES.join(', ')}`);
  return value as KeyCapability;
}

function keyIdOf(value: string | null): string {
  if (value === null || !KEY_ID.test(value)) throw new ApiError(400, `Invalid key_id ${JSON.stringify(value ?? '')}: key- and 12 hex characters, as keys/list.json shows`);
  return value;
}

/**
 * Key management on the dash API (docs/dash-api.md, "Keys"), what `crawlhub keys` does
 * from the command line: list, create, grant and withdraw capabilities, revoke. Admin
 * keys only (a project key gets 403): a key that manages keys holds every project.
 */
@Controller('keys')
export class KeysController {
  constructor(
    private readonly principals: RequestPrincipal,
    private readonly commands: CommandBus,
    @Inject(ACCESS_KEYS_VIEW) private readonly keys: AccessKeysView,
  ) {}

  private async admin(req: FastifyRequest): Promise<{ principal: Principal; params: URLSearchParams }> {
    const principal = await this.principals.require(req);
    if (!principal.admin || principal.job !== undefined) throw new ApiError(403, 'Only an admin key manages keys');
    return { principal, params: await formParams(req) };
  }

  /** Runs a command on an existing key: an unknown (or revoked) key is a 404. */
  private async onKey<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (e instanceof UnknownKeyError) throw new ApiError(404, e.message);
      throw e;
    }
  }

  @Get('list.json')
  async list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await this.admin(req);
    return sendDash(reply, { status: 'ok', keys: (await this.keys.list()).map(keyObject) });
  }

  /** `project` (repeatable) or `admin=true`; optional `label` and `grant` (repeatable). Answers the secret, once. */
  @Post('create.json')
  async create(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { principal, params } = await this.admin(req);
    const admin = params.get('admin') === 'true' || params.get('admin') === '1';
    const projects = params.getAll('project').map((p) => {
      if (!/^\d{1,15}$/.test(p)) throw new ApiError(400, `Invalid project id: ${JSON.stringify(p)}`);
      return Number(p);
    });
    if (!admin && projects.length === 0) throw new ApiError(400, 'A key needs a project (repeatable) or admin=true');
    if (admin && projects.length > 0) throw new ApiError(400, 'An admin key sees every project: give admin=true or projects, not both');
    const label = (params.get('label') ?? '').trim() || (admin ? 'admin' : `projects ${projects.join(',')}`);
    if (label.length > MAX_LABEL) throw new ApiError(400, `label is longer than ${MAX_LABEL} characters`);
    const capabilities = params.getAll('grant').map(capabilityOf);
    const { keyId, secret } = await this.commands.execute<CreateAccessKeyCommand, { keyId: string; secret: string }>(
      new CreateAccessKeyCommand(projects, admin, label, actorOf(principal), undefined, capabilities),
    );
    const created = await this.keys.findById(keyId);
    return sendDash(reply, { status: 'ok', apikey: secret, key: created ? keyObject(created) : { key_id: keyId } });
  }

  @Post('grant.json')
  grant(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.setCapability(req, reply, 'grant');
  }

  @Post('withdraw.json')
  withdraw(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.setCapability(req, reply, 'withdraw');
  }

  private async setCapability(req: FastifyRequest, reply: FastifyReply, action: 'grant' | 'withdraw') {
    const { principal, params } = await this.admin(req);
    const keyId = keyIdOf(params.get('key_id'));
    const capability = capabilityOf(params.get('capability'));
    const capabilities = await this.onKey(() =>
      this.commands.execute<SetKeyCapabilitiesCommand, KeyCapability[]>(
        new SetKeyCapabilitiesCommand(keyId, action === 'grant' ? [capability] : [], action === 'withdraw' ? [capability] : [], actorOf(principal)),
      ),
    );
    return sendDash(reply, { status: 'ok', key_id: keyId, capabilities });
  }

  @Post('revoke.json')
  async revoke(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { principal, params } = await this.admin(req);
    const keyId = keyIdOf(params.get('key_id'));
    // Revoking the key in hand would lock the caller out mid-action; another admin key can do it.
    if (keyId === principal.id) throw new ApiError(400, 'A key cannot revoke itself: revoke it with another admin key');
    await this.onKey(() => this.commands.execute<RevokeAccessKeyCommand, void>(new RevokeAccessKeyCommand(keyId, actorOf(principal))));
    return sendDash(reply, { status: 'ok', key_id: keyId, revoked: true });
  }
}
