/**
 * The listing's example, `pico({ name: "weather" }).tool("forecast", { … }).serve()`, as
 * examples/weather.ts writes it: served over stdio as a child process and driven by the official v1
 * client (initialize, tools/list, tools/call) and the official v2 client (2026-07-28: server/discover,
 * tools/call). It names no version, so both clients read serverInfo.version "0.0.0".
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT, tsxProgram } from "../peers/fixture.js";

const EXAMPLE = "examples/weather.ts";

const SERVER = tsxProgram(EXAMPLE);

const LISBON = "Lisbon:\ntoday: sunny, 14 to 24 °C\ntomorrow: sunny, 15 to 25 °C";

const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((client) => client.close()));
});

describe("the listing's example", () => {
  it("is examples/weather.ts: pico({ name }) with no version, one forecast tool, then .serve()", () => {
    const source = readFileSync(join(ROOT, EXAMPLE), "utf8");
    expect(source).toMatch(/\npico\(\{ name: "weather" \}\)\n {2}\.tool\("forecast", \{\n/);
    expect(source.endsWith("\n  })\n  .serve();\n")).toBe(true);
  });

  it("serves the official v1 client over stdio: initialize, tools/list, tools/call", async () => {
    const client = new Client({ name: "weather-v1", version: "1.0.0" });
    closing.push(client);
    await client.connect(new StdioClientTransport(SERVER));
    expect(client.getServerVersion()).toEqual({ name: "weather", version: "0.0.0" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["forecast"]);
    expect(tools[0]).toMatchObject({
      title: "Weather forecast",
      inputSchema: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } },
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(await client.callTool({ name: "forecast", arguments: { city: "lisbon", days: 2 } })).toEqual({
      content: [{ type: "text", text: LISBON }],
    });
    expect(await client.callTool({ name: "forecast", arguments: { city: "Atlantis" } })).toEqual({
      content: [
        { type: "text", text: 'No forecast for "Atlantis". Forecasts exist for Lisbon, Oslo, Nairobi, Tokyo.' },
      ],
      isError: true,
    });
  });

  it("serves the official v2 client over stdio in 2026-07-28: server/discover, tools/call", async () => {
    const client = new ModernClient({ name: "weather-v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
    closing.push(client);
    await client.connect(new ModernStdioTransport(SERVER));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getDiscoverResult()).toMatchObject({
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: { listChanged: true } },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "weather", version: "0.0.0" } },
    });
    expect(client.getServerVersion()).toEqual({ name: "weather", version: "0.0.0" });
    const result = await client.callTool({ name: "forecast", arguments: { city: "Lisbon", days: 2 } });
    expect(result.content).toEqual([{ type: "text", text: LISBON }]);
    expect(result.isError).toBeFalsy();
  });
});
