/**
 * The port `serve({ port })` takes, as plain JavaScript may give it (`process.env.PORT`: a string, or
 * nothing): the same on every runtime, where each read a missing or a wrong one its own way.
 */
import { describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import type { ServeOptions } from "../src/transports/http/options.js";

const server = () => pico({ name: "ports", signals: false }).tool("hello", { run: () => "hello" });

describe("serve({ port })", () => {
  it("refuses a missing or wrong port, saying what it takes", async () => {
    // Was, on Node: a missing port listened on any free one (Bun: 3000, Deno: 8000), and "abc" on a
    // pipe of that name in the working folder, announced as "http://127.0.0.1:abc/mcp".
    for (const [port, got] of [
      [undefined, "undefined"],
      ["abc", '"abc"'],
      ["", '""'],
      [-1, "-1"],
      [65536, "65536"],
      [3.5, "3.5"],
      [Number.NaN, "NaN"],
    ] as const) {
      await expect(server().serve({ port } as unknown as ServeOptions)).rejects.toThrow(
        new TypeError(`serve({ port }) takes a port from 0 to 65535 (0: any free one); got ${got}.`),
      );
    }
  });

  it("takes a port's digits, as process.env.PORT holds them", async () => {
    const listening = await server().serve({ port: "0" } as unknown as ServeOptions);
    try {
      expect(listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(listening.port).toBeGreaterThan(0);
    } finally {
      await listening.close();
    }
  });
});
