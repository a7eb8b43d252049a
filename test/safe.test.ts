/**
 * Safe results (the tool-design guide: no secrets, tokens or internal diagnostics in results):
 * errors carry neither stacks nor paths nor credentials, `secret()` values never serialize, and
 * the text copy of structured output is cut to the output schema like `structuredContent`.
 */
import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { safeMessage } from "../src/core/safe.js";
import { pico, Secret, secret } from "../src/index.js";

const text = (result: { content: { type: string; text?: string }[] }) => result.content.map((b) => b.text).join("\n");

describe("error messages", () => {
  it("never carry a stack, a file path or a credential", async () => {
    const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl";
    const server = pico({ name: "t", version: "1" })
      .tool("fs", {
        description: "Fails like fs does.",
        run: () => {
          const error = new Error("ENOENT: no such file or directory, open '/home/ada/app/data/projects.json'");
          Object.assign(error, { code: "ENOENT", syscall: "open", path: "/home/ada/app/data/projects.json" });
          throw error;
        },
      })
      .tool("upstream", {
        description: "Fails like an HTTP client does.",
        run: () => {
          throw new Error(`401 from https://api.example.com/v1/items with Authorization: Bearer ${jwt} (token ${jwt})`);
        },
      })
      .tool("stacked", {
        description: "Throws a message with a stack in it.",
        run: () => {
          throw new Error(`Boom\n    at run (C:\\srv\\app\\tool.js:10:5)\n    at next (node:internal/x:1:1)`);
        },
      })
      .tool("windows", {
        description: "Fails with a Windows path.",
        run: () => {
          throw new Error("Cannot read C:\\Users\\ada\\secrets\\key.pem");
        },
      });
    const fs = await server.call("fs");
    expect(fs).toEqual({
      content: [{ type: "text", text: "ENOENT: no such file or directory, open '[path]'" }],
      isError: true,
    });
    const upstream = text(await server.call("upstream"));
    expect(upstream).toBe(
      "401 from https://api.example.com/v1/items with Authorization: Bearer [redacted] (token [redacted])",
    );
    expect(text(await server.call("stacked"))).toBe("Boom");
    expect(text(await server.call("windows"))).toBe("Cannot read [path]");
    for (const name of ["fs", "upstream", "stacked", "windows"] as const) {
      const result = JSON.stringify(await server.call(name));
      expect(result).not.toMatch(/ at |\/home\/|\\Users\\|eyJ/);
    }
  });

  it("takes out a path and a credential, and only them: the words around them stay", () => {
    expect(
      safeMessage(
        new Error("Could not read C:\\data\\projects.json because the disk is full. Call list_projects later."),
      ),
    ).toBe("Could not read [path] because the disk is full. Call list_projects later.");
    expect(safeMessage(new Error("Missing C:\\Program Files\\Acme\\app.ini; run setup"))).toBe(
      "Missing [path]; run setup",
    );
    expect(safeMessage(new Error("Could not read /srv/app/data.json because the disk is full."))).toBe(
      "Could not read [path] because the disk is full.",
    );
    expect(safeMessage(new Error("401 with Basic dXNlcjpwYXNz, then bearer abc123def; sign in again"))).toBe(
      "401 with Basic [redacted], then bearer [redacted]; sign in again",
    );
    expect(safeMessage("Sent authorization: basic YWRhOnB3ZA==. Upstream said 401 to Basic dXNlcjpwYXNz")).toBe(
      "Sent authorization: basic [redacted]. Upstream said 401 to Basic [redacted]",
    );
  });

  it("takes out a short Basic credential, padding and all: base64 is whole groups of 4 characters", () => {
    // Was: 8 characters counted before the padding, so "ab:c" (YWI6Yw==) went out as written.
    for (const userPass of ["ab:c", "a:bcd", "bob:x", "OK:OK", "u:p1", "user:pass", "aladdin:opensesame"]) {
      const credential = Buffer.from(userPass).toString("base64");
      expect(safeMessage(new Error(`401 to Basic ${credential}; sign in again`))).toBe(
        "401 to Basic [redacted]; sign in again",
      );
    }
  });

  it("does what docs/tools.md's table says: paths of three or more segments go, one or two segments stay", () => {
    // The docs promised every absolute path redacted while /app/data.json was kept: the table is the promise now.
    const docs = readFileSync(new URL("../docs/tools.md", import.meta.url), "utf8");
    const table = docs.slice(docs.indexOf("<!-- test/safe.test.ts reads this table"));
    const rows = [...table.matchAll(/^\| `(.+?)` +\| `(.+?)` +\|$/gm)].map(([, thrown, sent]) => [thrown, sent]);
    expect(rows).toContainEqual(["No file /app/data.json", "No file /app/data.json"]);
    expect(rows).toContainEqual(["Could not read /srv/app/data.json: disk full", "Could not read [path]: disk full"]);
    for (const [thrown, sent] of rows) expect(safeMessage(new Error(thrown))).toBe(sent);
  });

  it("cleans JSON embedded in a message in its keys as in its values, a Windows path as JSON writes it included", async () => {
    const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl";
    const embedded = {
      "/home/ada/app/data.json": "/home/ada/app/data.json",
      "C:\\Users\\ada\\key.pem": "C:\\Users\\ada\\key.pem",
      [jwt]: jwt,
    };
    const server = pico({ name: "t", version: "1" })
      .tool("embeds", {
        description: "Fails with the JSON of an object in its message.",
        run: () => {
          throw new Error(`Unknown files ${JSON.stringify(embedded)}`);
        },
      })
      .tool("throws_object", {
        description: "Throws the object itself: its JSON is the message.",
        run: () => {
          throw embedded;
        },
      });
    const cleaned = '{"[path]":"[path]","[path]":"[path]","[redacted]":"[redacted]"}';
    // Was: the Windows path, key and value, sent as `[path]\Users\\ada\\key.pem` (JSON doubles each backslash).
    expect(text(await server.call("embeds"))).toBe(`Unknown files ${cleaned}`);
    expect(text(await server.call("throws_object"))).toBe(cleaned);
  });

  it("leaves messages written for the model as they are, URLs and short relative paths included", () => {
    for (const message of [
      "No user with id 42. Call list_users to see valid ids.",
      "Could not read file:///reports/q3.csv; see https://example.com/a/b/c/d",
      "Use the owner/name form, such as octo/repo.",
      "Limit: between 1/10 and 10/10.",
      "The basic search found nothing; try the advanced_search tool.",
      "Bearer tokens are not accepted here; sign in with sign_in first.",
      "Basic plan does not include exports.",
      // A Basic credential is base64 (RFC 7617): a word after "basic" with a digit, a dot or a dash is not one.
      "Only basic search-and-replace works here; call advanced_edit for regular expressions.",
      "The basic v2 API has no bulk export; call export_all.",
      "Only basic HTTP/1.1 is supported.",
      // Not whole groups of 4 characters, so no base64, whatever capitals, digits or "/" a word has.
      "Here is a basic TypeScript example.",
      "Only basic read/write access is granted; ask an admin for more.",
      "Run the basic PostgreSQL setup first.",
      "A basic 1234567890 is fine.",
      // Whole groups of 4, but under 8 characters, the least docs/tools.md counts as a Basic credential
      // (a user and password of 3 bytes or fewer, such as "YTpi" for "a:b", are as short as these words).
      "Only basic IPv6 is supported.",
      "The basic gRPC client is enough here.",
    ]) {
      expect(safeMessage(new Error(message))).toBe(message);
    }
    expect(safeMessage("a string")).toBe("a string");
  });

  it("takes out the frames of a real stack in a message, and keeps the message's own indented lines that start with 'at'", async () => {
    const stacks: string[] = [];
    const inner = async () => {
      await null;
      throw new Error("inner");
    };
    await Promise.all([inner()]).catch((error: Error) => stacks.push(error.stack ?? ""));
    try {
      [1].map(() => {
        throw new Error("mapped");
      });
    } catch (error) {
      stacks.push((error as Error).stack ?? "");
    }
    // Frames such as "at async Promise.all (index 0)" and "at Array.map (<anonymous>)" are among them.
    expect(stacks.join("\n")).toMatch(/\(index 0\).*\(<anonymous>\)/s);
    for (const stack of stacks) {
      expect(safeMessage(new Error(`Upstream failed: ${stack}\nCall retry_sync.`))).toMatch(
        /^Upstream failed: Error: (inner|mapped)\nCall retry_sync\.$/,
      );
    }
    // JavaScriptCore (Bun) writes "(native)" and Deno a file:// location.
    expect(safeMessage("Boom\n    at processTicksAndRejections (native)\n    at file:///srv/app/main.ts:3:9")).toBe(
      "Boom",
    );
    const own = "No room is free:\n  at 10:00 room B is taken\n\tat least 6 seats are needed\nCall list_slots.";
    expect(safeMessage(new Error(own))).toBe(own);
  });

  it("reads a long indented 'at' line once, whatever it holds", () => {
    // Each line is scanned once from its start to its end, wherever the frame's ending is sought.
    for (const filler of [":1", ":", "(", " "]) {
      const line = `x\n at ${filler.repeat(1_000_000 / filler.length)}y`;
      const started = performance.now();
      expect(safeMessage(line)).toBe(line);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  it("cleans a message of a million blank lines at once, so a client-chosen argument echoed in an error cannot stall the server", async () => {
    // The seed's get_user: "No user with id ${id}". A stack frame is found without backtracking over the
    // lines (before: each newline rescanned every one after it, hours for these).
    const server = pico({ name: "t", version: "1" }).tool("get_user", {
      input: z.object({ id: z.string() }),
      run: ({ id }) => {
        throw new Error(`No user with id ${id}. Call list_users to see valid ids.`);
      },
    });
    for (const blank of ["\n", "\n ", "\r\n\t"]) {
      const id = blank.repeat(1_000_000 / blank.length);
      expect(text(await server.call("get_user", { id }))).toBe(
        `No user with id ${id}. Call list_users to see valid ids.`,
      );
    }
    expect(
      safeMessage(
        new Error(`Boom\r\n    at run (/srv/app/tool.js:1:1)\n\tat next (node:internal/x:1:1)${"\n".repeat(3)}done`),
      ),
    ).toBe("Boom\r\n\n\ndone");
  });

  it("reads what follows 'basic' once, however long, and keeps a long word that is not base64", () => {
    for (const message of [
      `basic ${"a".repeat(1_000_000)}-`,
      "basic a1".repeat(200_000),
      `Basic ${"A1".repeat(500_000)}_`,
      `Basic ${"A1".repeat(500_000)}=_`,
      "basic a1B2c ".repeat(100_000),
    ]) {
      const started = performance.now();
      const cleaned = safeMessage(message);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(cleaned.length).toBeGreaterThan(0);
    }
    expect(safeMessage(`basic ${"a1".repeat(500_000)}-x`)).toBe(`basic ${"a1".repeat(500_000)}-x`);
  });

  it("cleans a message of a million characters that almost make JWTs at once, and still takes out the real ones", async () => {
    // Before: each "eyJ" after a "-" started a scan over the rest of the message, quadratic (hours for this).
    const id = "eyJa-".repeat(200_000);
    const server = pico({ name: "t", version: "1" }).tool("get_user", {
      input: z.object({ id: z.string() }),
      run: ({ id }) => {
        throw new Error(`No user with id ${id}.`);
      },
    });
    expect(text(await server.call("get_user", { id }))).toBe(`No user with id ${id}.`);
    const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl";
    expect(safeMessage(new Error(`token=${jwt}, (${jwt}) and ${jwt}`))).toBe(
      "token=[redacted], ([redacted]) and [redacted]",
    );
  });
});

describe("secret()", () => {
  it("serializes as [redacted] however it is turned into text, and only reveal() gives the value", () => {
    const key = secret("sk-live-1234567890");
    expect(JSON.stringify({ key })).toBe('{"key":"[redacted]"}');
    expect(String(key)).toBe("[redacted]");
    expect(`${key}`).toBe("[redacted]");
    expect(inspect(key)).toBe("Secret([redacted])");
    expect(Object.keys(key)).toEqual([]);
    expect(key).toBeInstanceOf(Secret);
    expect(key.reveal()).toBe("sk-live-1234567890");
  });

  it("can never reach a result, structured or not, nor an error message", async () => {
    const apiKey = secret("sk-live-1234567890");
    const server = pico({ name: "t", version: "1" })
      .tool("account", {
        description: "An account, with its key by mistake.",
        run: () => ({ id: "acct_1", apiKey }),
      })
      .tool("structured", {
        description: "Loose output schema that lets anything through.",
        output: z.object({ id: z.string(), extra: z.unknown() }),
        run: () => ({ id: "acct_1", extra: apiKey }),
      })
      .tool("failing", {
        description: "Interpolates the key into an error.",
        run: () => {
          throw new Error(`Upstream refused key ${apiKey}`);
        },
      });
    const results = [await server.call("account"), await server.call("structured"), await server.call("failing")];
    for (const result of results) expect(JSON.stringify(result)).not.toContain("sk-live");
    expect(text(results[0]!)).toBe('{"id":"acct_1","apiKey":"[redacted]"}');
    expect(results[1]!.structuredContent).toEqual({ id: "acct_1", extra: apiKey });
    expect(text(results[2]!)).toBe("Upstream refused key [redacted]");
  });
});

describe("structured output", () => {
  it("cuts the text copy to the output schema, exactly like structuredContent", async () => {
    const server = pico({ name: "t", version: "1" }).tool("user", {
      description: "A user, read from a row that has more than the schema names.",
      output: z.object({ id: z.string(), name: z.string() }),
      run: () => ({ id: "u1", name: "Ada", passwordHash: "$2b$10$abc", internalNote: "vip" }) as never,
    });
    const result = await server.call("user");
    expect(result.structuredContent).toEqual({ id: "u1", name: "Ada" });
    expect(JSON.parse(text(result))).toEqual({ id: "u1", name: "Ada" });
    expect(JSON.stringify(result)).not.toMatch(/passwordHash|internalNote|vip/);
  });
});
