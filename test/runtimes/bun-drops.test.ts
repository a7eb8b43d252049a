/**
 * Clients that leave mid-call on Bun (the `bun` devDependency), where picomcp follows each request's
 * `request.signal` (web.ts): the tool's `ctx.signal` aborts, in both eras, and that of every request
 * of a 2025-03-26 batch. test/runtimes/slow.ts, served with `serve()` on Bun.serve, imported from an
 * eval so that Bun does not also serve its default export.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  bunExecutable,
  modernCall,
  openSession,
  post,
  printed,
  START_TIMEOUT,
  type Started,
  start,
  versionOf,
} from "./harness.js";

const runtime = `bun ${versionOf("bun")}`;

const hang = (id: number, tag: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "hang", arguments: { tag } },
});

describe(`clients that leave mid-call on ${runtime}`, () => {
  let server: Started;
  beforeAll(async () => {
    server = await start(bunExecutable(), ["--eval", 'await import("./test/runtimes/slow.ts")']);
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  it("aborts ctx.signal of a 2026-07-28 call whose client drops the connection", async () => {
    const call = modernCall(server.url, "hang", { tag: "modern" });
    await printed(server, "hang modern: started");
    call.drop();
    await printed(server, "hang modern: aborted");
  });

  it("aborts ctx.signal of a call in a 2025-11-25 session whose client drops the connection before its answer began", async () => {
    const session = await openSession(server.url);
    const call = post(
      server.url,
      { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      hang(1, "session"),
    );
    await printed(server, "hang session: started");
    call.drop();
    await printed(server, "hang session: aborted");
  });

  it("aborts ctx.signal of every request of a 2025-03-26 batch whose client drops the connection", async () => {
    const session = await openSession(server.url, "2025-03-26");
    const call = post(server.url, { "mcp-session-id": session, "mcp-protocol-version": "2025-03-26" }, [
      hang(1, "batch-1"),
      hang(2, "batch-2"),
    ]);
    await printed(server, "hang batch-2: started");
    call.drop();
    // Was: neither aborted: each ran on to its own end (HANG_LIMIT_MS, 30 s), or limits.handlerTimeoutMs.
    await printed(server, "hang batch-1: aborted");
    await printed(server, "hang batch-2: aborted");
  });
});
