/**
 * The tools whose `x-mcp-header` annotations break the 2026-07-28 rules ("Schema Extension") are the
 * ones the official 2026-07-28 client leaves out of `tools/list`, and exactly the ones `lint` flags:
 * the developer hears of it from `picomcp check`, not from a tool that is silently missing.
 */
import { describe, expect, it, vi } from "vitest";
import { lint } from "../../src/testing.js";
import server, { BROKEN } from "../fixtures/header-plan-server.js";
import { servedToClients } from "./served.js";

const clients = servedToClients(server);

describe("x-mcp-header annotations", () => {
  it("the official client drops exactly the tools lint reports, and calls the one it keeps with its headers", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const client = await clients.modern();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["mirrored"]);
    // The client says why on the console, where a developer is not looking.
    expect(warn).toHaveBeenCalledTimes(Object.keys(BROKEN).length);
    warn.mockRestore();

    const reported = (await lint(server)).findings.filter((finding) => finding.rule.startsWith("x-mcp-header"));
    expect(reported.map((finding) => `${finding.severity} ${finding.tool}: ${finding.rule}`)).toEqual(
      Object.entries(BROKEN).map(([name, [rule]]) => `error ${name}: ${rule}`),
    );

    // The server refuses a call whose Mcp-Param-* headers are missing or differ (-32020): these are mirrored.
    const result = await client.callTool({
      name: "mirrored",
      arguments: { region: "eu-west", count: 3, dry_run: true, method: "GET", where: { tier: "gold" } },
    });
    expect(result.isError).toBeFalsy();
  });
});
