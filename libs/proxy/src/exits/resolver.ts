import { Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';

export const PROXY_RESOLVER = Symbol('PROXY_RESOLVER');

/** Name resolution of the proxy's targets (special-use names never reach it). */
export interface ProxyResolver {
  lookup(host: string): Promise<string>;
}

/** The system resolver. */
@Injectable()
export class SystemResolver implements ProxyResolver {
  async lookup(host: string): Promise<string> {
    return (await lookup(host)).address;
  }
}
