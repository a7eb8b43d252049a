/**
 * A tool's `task` setting is checked as it is registered, the way other registration mistakes are
 * (docs/tasks.md): an invalid one (`task: "sometimes"`, `{ support: "optional", ttlMs: -1 }`, a key
 * the setting does not have) rejects `ready()` and `serve()` while the Tasks layer loads, and throws a
 * TypeError at the `.tool()` call once it has; a server's first task tool comes before it serves.
 * No client ever meets the mistake. Was: the tool was registered, and the 2025-11-25 `tools/list`
 * answered -32603 to every client, the official v1 client's `listTools()` rejecting, whichever tools
 * it wanted. Official v1 and v2 clients over Streamable HTTP on 127.0.0.1.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { servedToClients } from "./served.js";

const invalid = (tool: string, setting: string) =>
  new TypeError(
    `Tool "${tool}" has an invalid task setting ${setting}: use "optional", "required" or { support, ttlMs?, pollIntervalMs?, askFirst? } with whole positive milliseconds and askFirst true or false.`,
  );

const echo = { name: "echo", arguments: { text: "still" } };
const ECHOED = { content: [{ type: "text", text: "still" }] };

/** A server with a task tool before it serves (its Tasks layer loaded), then given wrong settings. */
const server = pico({ name: "task-settings", version: "1.0.0" })
  .tool("echo", { input: z.object({ text: z.string() }), run: ({ text }) => text })
  .tool("report", { task: "optional", run: () => "a report" });
await server.ready();

/** A server of tools only: its first task tool would come while it serves. */
const toolsOnly = pico({ name: "tools-only", version: "1.0.0" }).tool("echo", {
  input: z.object({ text: z.string() }),
  run: ({ text }) => text,
});

const clients = servedToClients(server);
const toolsOnlyClients = servedToClients(toolsOnly);

describe("a wrong task setting, once the Tasks layer has loaded", () => {
  it("throws a TypeError at .tool(), and every client lists and calls the other tools as before", async () => {
    expect(() => server.tool("sometimes", { task: "sometimes" as never, run: () => "" })).toThrow(
      invalid("sometimes", '"sometimes"'),
    );
    expect(() => server.tool("negative", { task: { support: "optional", ttlMs: -1 }, run: () => "" })).toThrow(
      invalid("negative", '{"support":"optional","ttlMs":-1}'),
    );
    expect(() =>
      server.tool("asks", { task: { support: "required", askFirst: "yes" as never }, run: () => "" }),
    ).toThrow(invalid("asks", '{"support":"required","askFirst":"yes"}'));
    expect(() => server.tool("typo", { task: { support: "optional", ttl: 5000 } as never, run: () => "" })).toThrow(
      new TypeError(
        `Tool "typo"'s task setting has no option "ttl". Its options are support, ttlMs, pollIntervalMs, askFirst.`,
      ),
    );
    // A right one, while serving, is registered at once.
    server.tool("later", { task: { support: "optional", ttlMs: 60_000 }, run: () => "later" });

    const legacy = await clients.legacy();
    const modern = await clients.modern();
    const listed = await legacy.listTools();
    expect(listed.tools.map((tool) => [tool.name, tool.execution?.taskSupport])).toEqual([
      ["echo", undefined],
      ["report", "optional"],
      ["later", "optional"],
    ]);
    expect((await modern.listTools()).tools.map((tool) => tool.name)).toEqual(["echo", "report", "later"]);
    expect(await legacy.callTool(echo)).toEqual(ECHOED);
    expect(await modern.callTool(echo)).toMatchObject(ECHOED);
    expect(await legacy.callTool({ name: "report" })).toEqual({ content: [{ type: "text", text: "a report" }] });
    await expect(server.ready()).resolves.toBeUndefined();
  });
});

describe("a wrong task setting before the Tasks layer has loaded", () => {
  it("rejects ready() and serve() with the TypeError, and server.call with it", async () => {
    const bad = pico({ name: "bad" })
      .tool("echo", { input: z.object({ text: z.string() }), run: ({ text }) => text })
      .tool("sometimes", { task: "sometimes" as never, run: () => "" });
    const mistake = invalid("sometimes", '"sometimes"');
    await expect(bad.ready()).rejects.toThrow(mistake);
    await expect(bad.serve({ port: 0 })).rejects.toThrow(mistake);
    await expect(bad.call("echo", { text: "x" })).rejects.toThrow(mistake);
  });
});

describe("a server's first task tool once it serves", () => {
  it("throws at the call, and the server answers every client as before", async () => {
    const legacy = await toolsOnlyClients.legacy();
    expect(await legacy.callTool(echo)).toEqual(ECHOED);
    expect(() => toolsOnly.tool("report", { task: "optional", run: () => "a report" })).toThrow(
      new TypeError(
        "server.tool: the server is serving; register its first task tool before serve() and the first request.",
      ),
    );
    const other = pico({ name: "other" }).tool("report", { task: "optional", run: () => "a report" });
    await other.ready();
    expect(() => toolsOnly.include(other)).toThrow(
      /^server.include: the server is serving; await other.ready\(\), and include its first/,
    );
    expect((await legacy.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(await legacy.callTool(echo)).toEqual(ECHOED);
    await expect(toolsOnly.ready()).resolves.toBeUndefined();
  });
});
