/**
 * The snippets `picomcp dev` prints name the server as Claude Code's and Codex's own `mcp add` take
 * it: a server called "my weather.v2" is `my-weather-v2` for Claude Code (letters, digits, - and _)
 * and `"my-weather.v2"` for Codex (which also takes . : @ /), so each pasted line works as it is.
 */
import { describe, expect, it } from "vitest";
import { httpSnippets } from "../../src/cli/configs.js";

const URL = "http://127.0.0.1:3000/mcp";
const text = (name: string, client: string) => httpSnippets(name, URL).find((each) => each.client === client)?.text;

describe("picomcp dev's client snippets", () => {
  it("keep a name every client takes as it is", () => {
    expect(text("weather", "Claude Code")).toBe(`claude mcp add --transport http weather ${URL}`);
    expect(text("weather", "Codex")).toBe(`[mcp_servers.weather]\nurl = "${URL}"`);
  });

  it("give Claude Code and Codex a name their own `mcp add` accepts, and the other clients the server's", () => {
    expect(text("my weather.v2", "Claude Code")).toBe(`claude mcp add --transport http my-weather-v2 ${URL}`);
    expect(text("my weather.v2", "Codex")).toBe(`[mcp_servers."my-weather.v2"]\nurl = "${URL}"`);
    expect(JSON.parse(text("my weather.v2", "Cursor") ?? "{}")).toEqual({
      mcpServers: { "my weather.v2": { url: URL } },
    });
    expect(text("  ", "Claude Code")).toBe(`claude mcp add --transport http server ${URL}`);
  });
});
