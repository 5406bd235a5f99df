import { renderFailureCode, RenderingUnavailable } from './page-renderer.port';

const failing = (failure: string, message = 'x') => Object.assign(new Error(message), { failure });

describe('render failures', () => {
  it('are reported with the proxy error code of their cause', () => {
    expect(renderFailureCode(failing('timeout'))).toBe('timeout');
    expect(renderFailureCode(failing('queue_full'))).toBe('serverbusy');
    expect(renderFailureCode(failing('blocked_target'))).toBe('domain_forbidden');
    expect(renderFailureCode(failing('net_error', 'net::ERR_CONNECTION_REFUSED at http://127.0.0.1:1/'))).toBe('econnrefused');
    expect(renderFailureCode(failing('net_error', 'net::ERR_NAME_NOT_RESOLVED'))).toBe('nxdomain');
    expect(renderFailureCode(new Error('a bug'))).toBe('render_error');
  });

  it('until a renderer is bound, every render fails as unavailable', async () => {
    const e = await new RenderingUnavailable().render().catch((x: unknown) => x);
    expect(renderFailureCode(e)).toBe('render_unavailable');
    expect((e as Error).message).toBe('rendering is not available in this build');
  });
});
