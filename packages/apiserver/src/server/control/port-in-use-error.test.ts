import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiServer } from '../api-server.js';
import { PortInUseError } from './port-in-use-error.js';

describe('PortInUseError', () => {
  it('is what ApiServer.start rejects with when its port is taken, naming port, host and the fix', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const failure = await ApiServer.start({ port, https: false }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(PortInUseError.isInstance(failure)).toBe(true);
      expect(failure).toMatchObject({ port, host: '127.0.0.1', code: 'EADDRINUSE' });
      expect((failure as Error).message).toBe(
        `port ${port} on 127.0.0.1 is already in use: pass another port to ApiServer.start (port 0 picks a free one), or stop the process listening on it (lsof -i :${port} shows which)`,
      );
    } finally {
      holder.close();
    }
  });
});
