/**
 * server.ts with the keep-alive interval of event streams (reply.ts's KEEP_ALIVE_MS, 15 s) run as
 * 100 ms: a test sees a runtime's keep-alive comments without waiting 15 s for each, as
 * test/http-dead-stream.test.ts advances fake timers on Node. Set before server.ts is loaded.
 */
import { KEEP_ALIVE_MS } from "../../src/transports/http/reply.js";

globalThis.setInterval = new Proxy(globalThis.setInterval, {
  apply: (interval, self, [run, ms, ...rest]) =>
    Reflect.apply(interval, self, [run, ms === KEEP_ALIVE_MS ? 100 : ms, ...rest]),
});
await import("./server.js");
