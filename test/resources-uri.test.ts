/**
 * Which resource a URI reads, and with which variables, through a real server (`server.fetch`, in a
 * 2025-11-25 session): the matching of URI templates against what clients send (RFC 6570 §3.2).
 */
import { afterEach, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { harness } from "../src/testing.js";

type Server = ReturnType<typeof pico>;
const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A harness on a server whose every `read` answers with its arguments as JSON. */
function client(...templates: string[]) {
  const server = templates.reduce<Server>(
    (built, template) => built.resource(template, { read: (args) => JSON.stringify(args) }),
    pico({ name: "uris", version: "1" }),
  );
  servers.push(server);
  const mcp = harness(server);
  return {
    /** The arguments `read` got, or the error. */
    read: async (uri: string) => {
      const { result, error } = await mcp.request("resources/read", { uri });
      if (error) return error;
      const [item] = (result as { contents: { text: string }[] }).contents;
      return JSON.parse(item?.text ?? "null");
    },
  };
}

describe("resources/read of a template with several variables in one expression", () => {
  it("splits a reserved or fragment list at its commas (RFC 6570 §3.2.3, §3.2.4)", async () => {
    const { read } = client("size://{+w,h}", "docs://guide{#a,b}");
    expect(await read("size://1024,768")).toEqual({ uri: "size://1024,768", w: "1024", h: "768" });
    expect(await read("docs://guide#intro,setup")).toEqual({ uri: "docs://guide#intro,setup", a: "intro", b: "setup" });
  });
});

describe("resources/read of path parameters", () => {
  it("takes ;x=… or a bare ;x for {;x}, never a parameter whose name only starts with x (RFC 6570 §3.2.7)", async () => {
    const { read } = client("map://tile{;x,y}");
    expect(await read("map://tile;x=1;y=2")).toEqual({ uri: "map://tile;x=1;y=2", x: "1", y: "2" });
    expect(await read("map://tile;x;y=2")).toEqual({ uri: "map://tile;x;y=2", x: "", y: "2" });
    expect(await read("map://tile;xx=1;y=2")).toMatchObject({ code: -32002, data: { uri: "map://tile;xx=1;y=2" } });
  });
});

describe("resources/read of long URIs", () => {
  const LIMIT = 8192;

  it("matches a URI of 8192 characters against each template, in work proportional to its length", async () => {
    // Variables that could overlap: a backtracking match tries each way to share the URI between
    // them, the square (two) or the cube (three) of its length, before it finds that none matches.
    const { read } = client("wiki://{+space}/{+page}.md", "x://{a}{b}{c}/end");
    const page = "a".repeat(LIMIT - "wiki://s/.md".length);
    expect(await read(`wiki://s/${page}.md`)).toEqual({ uri: `wiki://s/${page}.md`, space: "s", page });
    for (const uri of [`wiki://${"/".repeat(LIMIT - 7)}`, `x://${"z".repeat(LIMIT - 4)}`]) {
      expect(await read(uri)).toMatchObject({ code: -32002, data: { uri } });
    }
  });

  it("cuts an unknown URI to 200 characters in the message, and sends it whole in data.uri", async () => {
    const { read } = client("wiki://{+space}/{+page}.md");
    const uri = `nope://${"x".repeat(LIMIT - 7)}`;
    expect(await read(uri)).toEqual({
      code: -32002,
      message: `Resource not found: ${uri.slice(0, 200)}…. Call resources/list or resources/templates/list to see what can be read.`,
      data: { uri },
    });
  });

  it("refuses a longer URI with -32602, before any template is tried", async () => {
    const { read } = client("wiki://{+space}/{+page}.md");
    expect(await read(`wiki://${"/".repeat(LIMIT - 6)}`)).toEqual({
      code: -32602,
      message: "Invalid params: the URI is 8193 characters long; resource URIs are limited to 8192.",
    });
  });
});

describe("resources/read of percent-encoded URIs", () => {
  it("finds the URI registered exactly however its unreserved characters are written (RFC 3986 §6.2.2.2)", async () => {
    const { read } = client("notes://index", "notes://{id}");
    // read gets the URI as registered, however the client spelt it.
    for (const uri of ["notes://index", "notes://%69ndex", "notes://ind%65%78"]) {
      expect(await read(uri), uri).toEqual({ uri: "notes://index" });
    }
    expect(await read("notes://%69dea")).toEqual({ uri: "notes://%69dea", id: "idea" });
  });

  it("matches no template whose variable would hold, decoded, a character its operator excludes", async () => {
    const { read } = client("notes://{id}", "img://logo{.ext}", "file:///{+path}");
    for (const uri of ["notes://..%2F..%2Fetc%2Fpasswd", "notes://a%3Fb", "notes://a%2Cb", "img://logo.tar%2Egz"]) {
      expect(await read(uri), uri).toMatchObject({ code: -32002, data: { uri } });
    }
    expect(await read("notes://a%20b")).toEqual({ uri: "notes://a%20b", id: "a b" });
    // A reserved variable takes any character, encoded or not.
    expect(await read("file:///a%2Fb")).toEqual({ uri: "file:///a%2Fb", path: "a/b" });
  });
});

describe("resource templates refused at registration", () => {
  it.each([
    ["users://{a:0}", 'Resource template "users://{a:0}" has an invalid expression "{a:0}".'],
    ["users://{%zz}", 'Resource template "users://{%zz}" has an invalid expression "{%zz}".'],
    [
      "links://{uri}",
      'Resource template "links://{uri}" has a variable named "uri", which read gets as the whole URI; rename the variable.',
    ],
    [
      "search://x{?uri}",
      'Resource template "search://x{?uri}" has a variable named "uri", which read gets as the whole URI; rename the variable.',
    ],
  ])("%s: server.ready() rejects with a TypeError that says what is wrong", async (template, message) => {
    const server = pico({ name: "uris", version: "1" }).resource(template, { read: () => "never" });
    await expect(server.ready()).rejects.toThrow(new TypeError(message));
  });
});
