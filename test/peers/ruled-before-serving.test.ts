/**
 * A rule registered before `serve()` is served, however late the code that checks it loads. The
 * fixture's only rule is a resource's: its layer, then the auth settings, load after stdio serving
 * has begun. Was: the settings' "first rule while serving" check ran when the layer added the
 * resource, and threw out of the layer's load, so the process died before answering `initialize`.
 * The official v1 client drives it over stdio.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, expect, it } from "vitest";
import { within } from "../http-helpers.js";
import { tsxProgram } from "./fixture.js";

const transport = new StdioClientTransport(tsxProgram("test/fixtures/ruled-first-server.ts"));
const client = new Client({ name: "ruled-peer", version: "1.0.0" });

afterAll(async () => {
  await client.close();
});

it("serves a server whose first rule is a resource's, registered before serve()", async () => {
  await within(client.connect(transport), 10_000, "initialize");
  expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
  expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(["notes://a"]);
  expect(await client.callTool({ name: "hello", arguments: {} })).toMatchObject({
    content: [{ type: "text", text: "hello" }],
  });
});
