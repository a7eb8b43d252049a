/**
 * The snippets `picomcp dev` prints name the server as Claude Code's and Codex's own `mcp add` take
 * it: a server called "my weather.v2" is `my-weather-v2` for Claude Code (letters, digits, - and _)
 * and `"my-weather.v2"` for Codex (which also takes . : @ /), so each pasted line works as it is;
 * the Inspector CLI's call line runs in a shell as pasted.
 */
import { describe, expect, it } from "vitest";
import { httpSnippets, inspectorCliSnippet } from "../../src/cli/configs.js";

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

  // Was: `--tool-name <tool> --tool-arg <name>=<value>`, which a shell takes for redirections and refuses.
  it("give the Inspector CLI a call line a shell runs as pasted: the server's first tool, or quoted placeholders", () => {
    const line = (call?: Parameters<typeof inspectorCliSnippet>[1]) =>
      inspectorCliSnippet(URL, call).text.split("\n")[1];
    const cli = `npx @modelcontextprotocol/inspector@2 --cli ${URL} --method tools/call`;
    expect(line({ tool: "forecast", arg: "city" })).toBe(`${cli} --tool-name forecast --tool-arg 'city=<value>'`);
    expect(line({ tool: "now" })).toBe(`${cli} --tool-name now`);
    expect(line({ tool: "say", arg: "it's" })).toBe(`${cli} --tool-name say --tool-arg 'it'\\''s=<value>'`);
    expect(line()).toBe(`${cli} --tool-name '<tool>' --tool-arg '<name>=<value>'`);
  });
});
