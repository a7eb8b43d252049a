/**
 * Building a server touches no global (issue 14, "No side effects at construction"): console output
 * goes to stderr only while `serve()` serves stdio, and is given back when serving ends (close(), the
 * end of stdin, a signal). A script that builds a server only to `server.call` it keeps its stdout,
 * and so does `serve({ port })`. Driven on child processes whose stdout is a pipe, as a client's is.
 */
import { afterAll, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { Child, call, checkLine, killChildren } from "./hardening-helpers.js";

afterAll(killChildren);

const FIXTURE = "test/fixtures/console-server.ts";

/** The console methods that write to stdout, and stdout's own write: what a server must not take over before serving. */
function globals() {
  const { log, info, debug, dir, dirxml, table, count, time, timeLog, timeEnd, group, groupCollapsed, trace } = console;
  return {
    console: { log, info, debug, dir, dirxml, table, count, time, timeLog, timeEnd, group, groupCollapsed, trace },
    write: process.stdout.write,
    listeners: ["SIGTERM", "SIGINT", "unhandledRejection"].map((event) => process.listenerCount(event)),
  };
}

/** The lines on stdout that are not JSON-RPC: what console wrote there. */
function logged(child: Child): string[] {
  return child.lines.filter((line) => !line.startsWith("{"));
}

describe("constructing a server", () => {
  it("replaces no console method, no stdout.write and adds no process listener, in-process", async () => {
    const before = globals();
    const server = pico({ name: "scope", version: "1.0.0", signals: false }).tool("echo", { run: () => "echoed" });
    expect(globals()).toEqual(before);
    expect((await server.call("echo")).content).toEqual([{ type: "text", text: "echoed" }]);
    expect(globals()).toEqual(before);
    // serve({ port }) leaves the console alone too (signals are off here, so no listener either).
    const listening = await server.serve({ port: 0 });
    expect(globals().console).toEqual(before.console);
    expect(globals().write).toBe(before.write);
    await listening.close();
    expect(globals()).toEqual(before);
  });

  it("leaves stdout to a script that only calls its tools: the result it logs is on its stdout", async () => {
    const child = new Child({ CONSOLE_MODE: "call" }, FIXTURE);
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.lines).toEqual([
      JSON.stringify({ content: [{ type: "text", text: '{"sum":5}' }], structuredContent: { sum: 5 } }),
      "console fixture: info after call",
    ]);
    expect(child.stderr).toBe("");
  });
});

describe("serve() over stdio", () => {
  it("keeps stdout protocol-only from the call of serve(), and gives console back after server.close()", async () => {
    const child = new Child({ CONSOLE_MODE: "stdio" }, FIXTURE);
    child.send(call(1, "add", { a: 1, b: 2 }));
    expect((await child.response(1)).result).toMatchObject({ structuredContent: { sum: 3 } });
    child.send(call(2, "close"));
    expect(await child.exited).toEqual({ code: 0, signal: null });
    const protocol = child.lines.filter((line) => line.startsWith("{"));
    for (const line of protocol) checkLine(line);
    expect(protocol.map((line) => JSON.parse(line).id)).toEqual([1, 2]);
    // Written once serve() was called, while it served: stderr.
    expect(child.stderr).toContain("console fixture: serve() was called");
    // Written after close() and serve() resolved: stdout again, after the protocol.
    expect(logged(child).sort()).toEqual([
      "console fixture: after close()",
      "console fixture: after serve() resolved",
      "console fixture: on exit",
    ]);
    expect(child.lines.findIndex((line) => !line.startsWith("{"))).toBe(protocol.length);
  });

  it("gives console back at the end of stdin", async () => {
    const child = new Child({ CONSOLE_MODE: "stdio" }, FIXTURE);
    child.send(call(1, "add", { a: 1, b: 2 }));
    await child.response(1);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stderr).toContain("console fixture: serve() was called");
    expect(logged(child).sort()).toEqual(["console fixture: after serve() resolved", "console fixture: on exit"]);
  });

  it("gives console back when a signal closes the server", async () => {
    const child = new Child({ CONSOLE_MODE: "stdio" }, FIXTURE);
    child.send(call(1, "add", { a: 1, b: 2 }));
    await child.response(1);
    child.process.kill("SIGTERM");
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stderr).toContain("picomcp: SIGTERM, shutting down");
    // The signal exits the process once the server is closed: serve() resolving is not waited for.
    expect(logged(child)).toContain("console fixture: on exit");
    expect(logged(child)).not.toContain("console fixture: serve() was called");
  });

  it("takes stdout when serve() is called, even when the caller's identity (auth.stdio) takes a while", async () => {
    const child = new Child({ CONSOLE_MODE: "stdio", CONSOLE_AUTH: "1" }, FIXTURE);
    child.send(call(1, "add", { a: 1, b: 2 }));
    expect((await child.response(1)).result).toMatchObject({ structuredContent: { sum: 3 } });
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stderr).toContain("console fixture: serve() was called");
    expect(logged(child).sort()).toEqual(["console fixture: after serve() resolved", "console fixture: on exit"]);
  });
});
