import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Starts `server` on 127.0.0.1 at a free port and puts its closing (every connection ended, then the
 * listener) in `closing`, for the test's afterEach: answers its origin, `http://127.0.0.1:<port>`.
 */
export async function listenLoopback(server: Server, closing: (() => Promise<void>)[]): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closing.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
