import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { type Identity, pico } from "../src/index.js";
import type { ContractReport } from "../src/testing.js";

const server = pico({ name: "t", version: "1", auth: { required: false } });

describe("auth rules are typed from the registration", () => {
  it("a tool's check gets the identity and the validated arguments", () => {
    server.tool("get_invoice", {
      input: z.object({ id: z.string(), limit: z.number().default(5) }),
      auth: (identity, args) => {
        expectTypeOf(identity).toEqualTypeOf<Identity>();
        expectTypeOf(args).toEqualTypeOf<{ id: string; limit: number }>();
        return identity.subject === args.id;
      },
      run: (_args, ctx) => {
        expectTypeOf(ctx.auth).toEqualTypeOf<Identity | undefined>();
        return "";
      },
    });
    server.tool("archive", {
      input: z.object({ owner: z.string() }),
      auth: { scopes: ["write"], roles: ["admin"], allow: async (identity, { owner }) => identity.subject === owner },
      run: () => "",
    });
  });

  it("a resource's check gets its template variables; a prompt's, its arguments", () => {
    server.resource("notes://{owner}/{id}", {
      auth: {
        allow: (_identity, args) => {
          expectTypeOf(args.owner).toEqualTypeOf<string>();
          expectTypeOf(args.id).toEqualTypeOf<string>();
          expectTypeOf(args.uri).toEqualTypeOf<string>();
          return true;
        },
      },
      read: () => "",
    });
    server.prompt("review", {
      input: z.object({ topic: z.string() }),
      auth: (_identity, args) => {
        expectTypeOf(args).toEqualTypeOf<{ topic: string }>();
        return true;
      },
      get: () => "",
    });
  });

  it("refuses a misspelled rule and a check that does not answer a boolean", () => {
    // @ts-expect-error `scope` is not a field of a rule: `scopes` is
    server.tool("a", { auth: { scope: ["x"] }, run: () => "" });
    // @ts-expect-error a rule string is "public" or "signed-in"
    server.tool("b", { auth: "private", run: () => "" });
    // @ts-expect-error a check answers a boolean
    server.tool("c", { auth: () => "yes", run: () => "" });
  });

  it("server.call takes an identity; contract answers counts", () => {
    const typed = pico({ name: "t", version: "1" }).tool("t", { input: z.object({ n: z.number() }), run: () => "" });
    void typed.call("t", { n: 1 }, { auth: { subject: "ada", scopes: "a b" } });
    expectTypeOf<ContractReport["valid"]>().toEqualTypeOf<number>();
  });
});
