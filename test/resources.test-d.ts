import { describe, expectTypeOf, it } from "vitest";
import { type CompletionContext, type Context, type Identity, pico } from "../src/index.js";
import type { TemplateVariables } from "../src/resources/uri-template.js";

const server = pico({ name: "t", version: "1" });

/** An intersection as one object type, to compare it with a written one. */
type Flat<T> = { [K in keyof T]: T[K] };

describe("template variables are inferred from the URI string", () => {
  it("reads every operator's names, without modifiers", () => {
    expectTypeOf<TemplateVariables<"users://{id}/profile">>().toEqualTypeOf<"id">();
    expectTypeOf<TemplateVariables<"x://{a}{+b}{#c}{.d}{/e,f}{;g}{?h,i}{&j}">>().toEqualTypeOf<
      "a" | "b" | "c" | "d" | "e" | "f" | "g" | "h" | "i" | "j"
    >();
    expectTypeOf<TemplateVariables<"files://{/path*}{?depth:3}">>().toEqualTypeOf<"path" | "depth">();
    expectTypeOf<TemplateVariables<"docs://readme">>().toEqualTypeOf<never>();
  });

  it("types read's arguments: the URI and each variable, query variables optional", () => {
    server.resource("repos://{owner}/{repo}/issues{?state,page}", {
      read: (args, ctx) => {
        expectTypeOf<Flat<typeof args>>().toEqualTypeOf<{
          uri: string;
          owner: string;
          repo: string;
          state?: string;
          page?: string;
        }>();
        expectTypeOf(ctx).toEqualTypeOf<Context>();
        return "";
      },
    });
  });

  it("gives a fixed URI only the uri", () => {
    server.resource("docs://readme", {
      read: (args) => {
        expectTypeOf<Flat<typeof args>>().toEqualTypeOf<{ uri: string }>();
        // @ts-expect-error: a fixed URI has no variables
        void args.id;
        return "";
      },
    });
  });

  it("makes a missing or misspelled variable a type error", () => {
    server.resource("users://{userId}/profile", {
      read: ({ userId }) => userId,
    });
    server.resource("users://{userId}/profile/v2", {
      // @ts-expect-error: the template's variable is userId, not id
      read: ({ id }) => id,
    });
    server.resource("users://{userId}/posts/{postId}", {
      read: (args) => {
        // @ts-expect-error: misspelled
        void args.postid;
        return `${args.userId}/${args.postId}`;
      },
    });
  });

  it("lets read return text, bytes, contents, or undefined for not found", () => {
    server
      .resource("a://{x}", { read: () => "text" })
      .resource("b://{x}", { read: () => new Uint8Array([1]) })
      .resource("c://{x}", { read: ({ uri }) => ({ uri, text: "t" }) })
      .resource("d://{x}", { read: ({ uri }) => [{ uri, blob: "AA==", mimeType: "image/png" }] })
      .resource("e://{x}", { read: async ({ x }) => (x === "0" ? undefined : x) });
    server.resource("f://{x}", {
      // @ts-expect-error: a number is not contents
      read: () => 42,
    });
  });
});

describe("complete and list", () => {
  it("limits complete's keys to the template's variables, and types each completer", () => {
    server.resource("repos://{owner}/{repo}", {
      read: () => "",
      complete: {
        owner: (value, context) => {
          expectTypeOf(value).toEqualTypeOf<string>();
          expectTypeOf(context).toEqualTypeOf<CompletionContext>();
          expectTypeOf(context.arguments).toEqualTypeOf<Record<string, string>>();
          // The request, documented as the second argument: the caller to check more against.
          expectTypeOf(context.ctx).toEqualTypeOf<Context>();
          expectTypeOf(context.ctx.auth).toEqualTypeOf<Identity | undefined>();
          return ["acme"];
        },
        repo: async () => ["app"],
      },
    });
    server.resource("repos://{owner}/{repo}/v2", {
      read: () => "",
      complete: {
        // @ts-expect-error: not a variable of the template
        name: () => [],
      },
    });
    server.resource("repos://{owner}/{repo}/v3", {
      read: () => "",
      complete: {
        // @ts-expect-error: a completer returns strings
        owner: () => [1, 2],
      },
    });
  });

  it("types list's resources", () => {
    server.resource("users://{id}", {
      read: () => "",
      list: async (ctx) => {
        expectTypeOf(ctx).toEqualTypeOf<Context>();
        return [{ uri: "users://1", name: "Ada", title: "Ada Lovelace", size: 10 }];
      },
    });
    server.resource("users://{id}/v2", {
      read: () => "",
      // @ts-expect-error: a listed resource needs a name
      list: () => [{ uri: "users://1" }],
    });
  });

  it("keeps the chain's tool types", () => {
    const chained = pico({ name: "t", version: "1" })
      .tool("hello", { run: () => "hi" })
      .resource("docs://readme", { read: () => "" })
      .prompt("p", { get: () => "" });
    void chained.call("hello");
    // @ts-expect-error: no such tool
    void chained.call("docs");
  });
});
