import { Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';

export const PROXY_RESOLVER = Symbol('PROXY_RESOLVER');

/** Name resolution of the proxy's targets (special-use names and IP literals never reach it). */
export interface ProxyResolver {
  /** Every address of `name` (the guard checks them all, and the connection goes to the first). */
  lookup(name: string): Promise<string[]>;
}

/** The system resolver. */
@Injectable()
export class SystemResolver implements ProxyResolver {
  async lookup(name: string): Promise<string[]> {
    return (await lookup(name, { all: true })).map((a) => a.address);
  }
}
