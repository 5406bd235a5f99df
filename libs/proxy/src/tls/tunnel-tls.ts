import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { createSecureContext, SecureContext, TLSSocket } from 'node:tls';
import { ProxyCa } from './proxy-ca';

/** Names whose secure context is kept (emptied when full, as the CA's leaves are). */
const MAX_CONTEXTS = 10_000;

/**
 * TLS termination of intercepted tunnels, done by the proxy itself on the tunnel's socket
 * (a `TLSSocket` in server mode), not by a TLS server per host: one secure context per
 * certificate name, made once from the CA's leaf, and one session-ticket key shared by all
 * of them, so a client resumes its session in any later tunnel of this process (an
 * abbreviated handshake: no certificate, no signature).
 */
export class TunnelTls {
  private readonly contexts = new Map<string, Promise<SecureContext>>();
  /** The ticket key of every context (48 bytes: name, HMAC and AES keys), for the life of the process. */
  private readonly ticketKeys = randomBytes(48);

  constructor(private readonly ca: ProxyCa) {}

  /** The secure context presenting the leaf certificate of `name`, made once. */
  context(name: string): Promise<SecureContext> {
    let context = this.contexts.get(name);
    if (context === undefined) {
      context = this.ca.leaf(name).then((leaf) => {
        const made = createSecureContext({ key: leaf.key, cert: leaf.cert });
        (made.context as { setTicketKeys(keys: Buffer): void }).setTicketKeys(this.ticketKeys);
        return made;
      });
      context.catch(() => this.contexts.delete(name));
      if (this.contexts.size >= MAX_CONTEXTS) this.contexts.clear();
      this.contexts.set(name, context);
    }
    return context;
  }

  /**
   * The decrypted side of a tunnel whose client starts a TLS handshake (`head`: its first
   * bytes, already read). The certificate names `certName` (the CONNECT's target), or the
   * name the client sends in SNI when that differs (what its TLS client checks).
   */
  async terminate(socket: Duplex, head: Buffer, certName: string): Promise<TLSSocket> {
    const secureContext = await this.context(certName);
    // The TLS socket reads what waits in the stream's buffer before the handle.
    socket.unshift(head);
    return new TLSSocket(socket, {
      isServer: true,
      secureContext,
      ALPNProtocols: ['http/1.1'],
      SNICallback: (servername, cb) => {
        if (servername === certName) return cb(null, secureContext);
        this.context(servername).then((c) => cb(null, c), (e: Error) => cb(e, undefined));
      },
    });
  }
}
