import { describe, expect, it } from "vitest";
import { isTemplate, UriTemplate } from "../src/resources/uri-template.js";

const match = (template: string, uri: string) => new UriTemplate(template).match(uri);

describe("isTemplate", () => {
  it("is true only for a URI with an expression", () => {
    expect(isTemplate("users://{id}")).toBe(true);
    expect(isTemplate("docs://readme")).toBe(false);
  });
});

describe("UriTemplate: each operator matches its own expansion (RFC 6570 §3.2)", () => {
  it.each([
    ["simple {var}", "users://{id}/profile", "users://42/profile", { id: "42" }],
    ["simple, several names", "point://{x,y}", "point://3,4", { x: "3", y: "4" }],
    ["reserved {+var} keeps slashes", "file:///{+path}", "file:///src/a/b.ts", { path: "src/a/b.ts" }],
    ["reserved, several names split at the comma", "size://{+w,h}", "size://1024,768", { w: "1024", h: "768" }],
    ["reserved, several names with slashes", "x://{+a,b}/end", "x://p/q,r/s/end", { a: "p/q", b: "r/s" }],
    ["fragment {#var}", "docs://guide{#section}", "docs://guide#install", { section: "install" }],
    ["fragment, several names", "docs://guide{#a,b}", "docs://guide#x,y", { a: "x", b: "y" }],
    ["label {.var}", "img://logo{.ext}", "img://logo.png", { ext: "png" }],
    ["path segment {/var}", "repos://github{/owner,repo}", "repos://github/acme/app", { owner: "acme", repo: "app" }],
    ["path parameter {;var}", "map://tile{;x,y}", "map://tile;x=1;y=2", { x: "1", y: "2" }],
    ["path parameter with an empty value", "map://tile{;x,y}", "map://tile;x;y=2", { x: "", y: "2" }],
    ["query {?var}", "search://issues{?q,limit}", "search://issues?q=bug&limit=5", { q: "bug", limit: "5" }],
    [
      "query continuation {&var}",
      "search://issues?state=open{&page}",
      "search://issues?state=open&page=3",
      { page: "3" },
    ],
  ])("%s", (_label, template, uri, variables) => {
    expect(match(template, uri)).toEqual(variables);
  });

  it("reads query variables in any order, ignores unknown ones, and leaves absent ones out", () => {
    const template = new UriTemplate("search://issues{?q,limit}");
    expect(template.match("search://issues?limit=5&other=x&q=bug")).toEqual({ q: "bug", limit: "5" });
    expect(template.match("search://issues?q=bug")).toEqual({ q: "bug" });
    expect(template.match("search://issues")).toEqual({});
  });

  it("takes the first of a repeated query variable, and an empty value for a bare name", () => {
    expect(match("search://issues{?q}", "search://issues?q=first&q=second")).toEqual({ q: "first" });
    expect(match("search://issues{?q}", "search://issues?q")).toEqual({ q: "" });
  });

  it("accepts the prefix modifier {var:n} and the explode modifier {var*}", () => {
    expect(match("users://{id:3}", "users://abc")).toEqual({ id: "abc" });
    // An exploded variable holds a list joined by its operator's separator.
    expect(match("files://root{/path*}", "files://root/a/b/c.txt")).toEqual({ path: "a/b/c.txt" });
    expect(match("tags://{list*}", "tags://red,green")).toEqual({ list: "red,green" });
    expect(match("host://www{.domain*}", "host://www.example.com")).toEqual({ domain: "example.com" });
  });

  it("matches {;var*} as RFC 6570 §3.2.7 expands it: a list or keys, each item its own ;name=value", () => {
    expect(match("colors://x{;list*}", "colors://x;list=red;list=green;list=blue")).toEqual({
      list: "list=red;list=green;list=blue",
    });
    // Keys are named by their own names, not the variable's; each value is decoded once.
    expect(match("colors://x{;keys*}", "colors://x;semi=%3B;dot=.;comma=%2C")).toEqual({
      keys: "semi=;;dot=.;comma=,",
    });
    expect(match("colors://x{;list*}", "colors://x;list;list=red")).toEqual({ list: "list;list=red" });
    expect(match("map://tile{;x,list*}", "map://tile;x=1;list=a;list=b")).toEqual({ x: "1", list: "list=a;list=b" });
    expect(match("map://tile{;list*,y}", "map://tile;list=a;list=b;y=2")).toEqual({ list: "list=a;list=b", y: "2" });
    expect(match("map://tile{;list*}/end", "map://tile;list=a/end")).toEqual({ list: "list=a" });
  });

  it("combines path and query expressions", () => {
    expect(match("users://{id}/posts{?sort}", "users://7/posts?sort=new")).toEqual({ id: "7", sort: "new" });
    expect(match("users://{id}/posts{?sort}", "users://7/posts")).toEqual({ id: "7" });
  });

  it("accepts variable names with dots and percent-encoded characters", () => {
    expect(match("x://{user.id}/{a%20b}", "x://1/2")).toEqual({ "user.id": "1", "a%20b": "2" });
    expect(match("x://{a:9999}", "x://1")).toEqual({ a: "1" });
  });

  it("lists its variables in order, without modifiers", () => {
    expect(new UriTemplate("repos://{owner}/{repo*}{?ref,depth:2}").variables).toEqual([
      "owner",
      "repo",
      "ref",
      "depth",
    ]);
  });
});

describe("UriTemplate: percent-decoding", () => {
  it("decodes each variable once", () => {
    expect(match("users://{name}", "users://Jos%C3%A9%20Mar%C3%ADa")).toEqual({ name: "José María" });
    expect(match("file:///{+path}", "file:///my%20docs/a%2Fb.txt")).toEqual({ path: "my docs/a/b.txt" });
    expect(match("users://{id}", "users://100%25")).toEqual({ id: "100%" });
  });

  it("decodes query names and values, and keeps '+' a plus sign as in every other part of a URI", () => {
    expect(match("search://x{?q}", "search://x?q=a%20b+c%2Bd")).toEqual({ q: "a b+c+d" });
    expect(match("search://x{?q}", "search://x?%71=found")).toEqual({ q: "found" });
  });

  it("leaves a malformed escape as it was", () => {
    expect(match("users://{id}", "users://50%zz")).toEqual({ id: "50%zz" });
  });

  it("treats the literal parts as literal text, not as patterns", () => {
    expect(match("a.b://{id}", "a.b://1")).toEqual({ id: "1" });
    expect(match("a.b://{id}", "aXb://1")).toBeUndefined();
    expect(match("x://(a)+[b]/{id}", "x://(a)+[b]/1")).toEqual({ id: "1" });
  });
});

describe("UriTemplate: non-matches", () => {
  it.each([
    ["another scheme", "users://{id}/profile", "people://42/profile"],
    ["a missing literal suffix", "users://{id}/profile", "users://42"],
    ["an extra segment in a simple variable", "users://{id}/profile", "users://4/2/profile"],
    ["a trailing suffix", "users://{id}", "users://42/extra"],
    ["a query on a template without one", "users://{id}", "users://42?x=1"],
    ["a fragment on a template without one", "users://{id}", "users://42#top"],
    ["a missing fragment", "docs://guide{#section}", "docs://guide"],
    ["a missing label dot", "img://logo{.ext}", "img://logopng"],
    ["a label with a second dot", "img://logo{.ext}", "img://logo.tar.gz"],
    ["a second segment in {/var}", "repos://github{/owner}", "repos://github/acme/app"],
    ["text glued to the query expression", "search://issues{?q}", "search://issuesX?q=1"],
    ["a prefix before the scheme", "users://{id}", "xusers://1"],
    ["an encoded slash in a simple variable", "users://{id}/profile", "users://..%2F..%2Fetc/profile"],
    ["an encoded dot in a label", "img://logo{.ext}", "img://logo.tar%2Egz"],
    ["a path parameter that only starts with the name", "map://tile{;x,y}", "map://tile;xx=1;y=2"],
    ["another path parameter in its place", "map://tile{;x,y}", "map://tile;xy=9;y=2"],
    ["an exploded path parameter without its ;", "map://tile{;list*}", "map://tilelist=a"],
    ["an exploded path parameter with a slash", "map://tile{;list*}", "map://tile;list=a/b"],
    ["an exploded path parameter with an encoded slash", "map://tile{;list*}", "map://tile;list=a%2Fb"],
  ])("%s", (_label, template, uri) => {
    expect(match(template, uri)).toBeUndefined();
  });
});

describe("UriTemplate: invalid templates throw at construction", () => {
  it.each([
    ["an unclosed expression", "users://{id", 'Resource template "users://{id" has an unmatched "{" or "}".'],
    ["an expression closed twice", "users://{id}}", 'Resource template "users://{id}}" has an unmatched "{" or "}".'],
    ["an unclosed second expression", "u://{a}/{b", 'Resource template "u://{a}/{b" has an unmatched "{" or "}".'],
    ["an empty expression", "users://{}", 'Resource template "users://{}" has an invalid expression "{}".'],
    ["a space in a name", "users://{a b}", 'Resource template "users://{a b}" has an invalid expression "{a b}".'],
    ["a reserved operator", "users://{=id}", 'Resource template "users://{=id}" has an invalid expression "{=id}".'],
    ["an empty name in a list", "users://{a,}", 'Resource template "users://{a,}" has an invalid expression "{a,}".'],
    ["a prefix of 0", "users://{a:0}", 'Resource template "users://{a:0}" has an invalid expression "{a:0}".'],
    ["a prefix over 9999", "u://{a:10000}", 'Resource template "u://{a:10000}" has an invalid expression "{a:10000}".'],
    [
      "a malformed escape in a name",
      "users://{%zz}",
      'Resource template "users://{%zz}" has an invalid expression "{%zz}".',
    ],
    ["a dot that ends a name", "users://{a.}", 'Resource template "users://{a.}" has an invalid expression "{a.}".'],
    ["a repeated variable", "u://{id}/{id}", 'Resource template "u://{id}/{id}" uses the variable "id" twice.'],
    ["a variable in path and query", "u://{q}{?q}", 'Resource template "u://{q}{?q}" uses the variable "q" twice.'],
  ])("%s", (_label, template, message) => {
    expect(() => new UriTemplate(template)).toThrow(new TypeError(message));
  });
});
