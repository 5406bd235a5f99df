#!/usr/bin/env node
// The containers' health check: `node healthcheck.js <port> [path]` asks the process's own
// port (an API port, the proxy port, or OPS_PORT) for `path` (default /readyz) and exits 0
// on 200, 1 otherwise. The image has no curl; Node is there anyway.
'use strict';

const [port, path = '/readyz'] = process.argv.slice(2);
fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(4000) })
  .then((res) => process.exit(res.status === 200 ? 0 : 1))
  .catch(() => process.exit(1));
