/**
 * What a stdio server holds behind a resource update whose read check waits (an asynchronous
 * `allow`: transports/connection.ts, `#tell`) when serving ends: by the end of stdin, SIGTERM or
 * close(). Every response is written before serving ends; a notification is written if its check
 * answers within the shutdown's bound, and otherwise dropped, never written after serving ended.
 * A 2026-07-28 listen stream's update whose check waits holds back its own stream only, and goes out
 * before the listen's final result when the server closes.
 * A real child process (test/fixtures/stdio-held-server.ts), driven line by line; it writes `served`
 * on stdout once serve() has resolved, then exits.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Child, killChildren, MODERN_META } from "./hardening-helpers.js";
import { within } from "./http-helpers.js";

afterAll(killChildren);

const SCRIPT = "test/fixtures/stdio-held-server.ts";

const updated = (uri: string) => ({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });
const call = (id: string, name: string, uri: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: { uri } },
});
const result = (id: string, text: string) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });

/** The fixture as a child, with a session of `version` subscribed to `uri`. */
async function subscribed(uri: string, version: string, env: Record<string, string> = {}): Promise<Child> {
  const child = new Child(env, SCRIPT);
  child.send({
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  await child.response("init");
  child.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  child.send({ jsonrpc: "2.0", id: "sub", method: "resources/subscribe", params: { uri } });
  await child.response("sub");
  return child;
}

/** What the child wrote after the subscription, once it has exited: protocol lines, parsed, and `served`. */
async function writtenAfterExit(child: Child): Promise<unknown[]> {
  const exit = await within(child.exited, 30_000, "the server to exit");
  expect(exit, child.stderr).toEqual({ code: 0, signal: null });
  const lines = child.lines.filter((line) => line !== "");
  const after = lines.findIndex((line) => line.includes('"sub"')) + 1;
  return lines.slice(after).map((line) => (line === "served" ? line : JSON.parse(line)));
}

describe("a 2025-03-26 batch whose answer waits behind an update", () => {
  it("is answered before serving ends when stdin ends", async () => {
    const child = await subscribed("slow://300", "2025-03-26");
    child.send([call("b1", "update", "slow://300"), { jsonrpc: "2.0", id: "b2", method: "ping" }]);
    child.process.stdin.end();
    // Was: serving ended at once, the batch's answer and the update not yet written (lost at the exit).
    expect(await writtenAfterExit(child)).toEqual([
      updated("slow://300"),
      [result("b1", "updated"), { jsonrpc: "2.0", id: "b2", result: {} }],
      "served",
    ]);
  });

  it("is answered before the process exits on SIGTERM", async () => {
    const child = await subscribed("slow://300", "2025-03-26");
    child.send([call("b1", "update", "slow://300")]);
    await child.until(() => child.stderr.includes("announced slow://300"), 10_000, "the update");
    child.process.kill("SIGTERM");
    const written = (await writtenAfterExit(child)).filter((line) => line !== "served");
    // Was: nothing, the process exiting before the update's check answered.
    expect(written).toEqual([updated("slow://300"), [result("b1", "updated")]]);
  });
});

describe("what waits behind an update's read check when serving ends", () => {
  it("sends an update whose check answers within the shutdown's bound before serving ends (stdin ends)", async () => {
    const child = await subscribed("slow://300", "2025-11-25");
    child.send(call("c", "update_later", "slow://300"));
    await child.until(() => child.stderr.includes("announced slow://300"), 10_000, "the update");
    child.process.stdin.end();
    // Was: serving ended at once, and the update was lost at the exit.
    expect(await writtenAfterExit(child)).toEqual([result("c", "will update"), updated("slow://300"), "served"]);
  });

  it("sends an update whose check answers within the shutdown's bound before the process exits on SIGTERM", async () => {
    const child = await subscribed("slow://300", "2025-11-25");
    child.send(call("c", "update_later", "slow://300"));
    await child.until(() => child.stderr.includes("announced slow://300"), 10_000, "the update");
    child.process.kill("SIGTERM");
    const written = (await writtenAfterExit(child)).filter((line) => line !== "served");
    // Was: the update was lost at the exit.
    expect(written).toEqual([result("c", "will update"), updated("slow://300")]);
  });

  it("sends a response whose update's check has not answered by the shutdown's bound, and drops the update", async () => {
    // The bound: twice shutdownGraceMs (0.2 s here), then a second for the client to read.
    const child = await subscribed("slow://never", "2025-11-25", { GRACE_MS: "200" });
    child.send(call("c", "update", "slow://never"));
    await child.until(() => child.stderr.includes("announced slow://never"), 10_000, "the update");
    child.process.stdin.end();
    // Was: serving ended after the grace periods with the response still held, and it was lost at the exit.
    expect(await writtenAfterExit(child)).toEqual([result("c", "updated"), "served"]);
  });

  it("drops an update whose check answers after the shutdown's bound: nothing is written once serving has ended", async () => {
    // The check answers 2 s after the update, well past the bound of 0.4 s; the process lives 3 s more.
    const child = await subscribed("slow://2000", "2025-11-25", { GRACE_MS: "200", LINGER_MS: "3000" });
    child.send(call("c", "update_later", "slow://2000"));
    await child.until(() => child.stderr.includes("announced slow://2000"), 10_000, "the update");
    child.process.stdin.end();
    // Was: the update was written once its check answered, after `served`: after serving had ended and
    // stdout had been given back to the program.
    expect(await writtenAfterExit(child)).toEqual([result("c", "will update"), "served"]);
  });
});

describe("requests read while answers wait behind an update's check", () => {
  it("are read no further than a connection's worth of held messages until the check answers", async () => {
    // 16 per connection; the check answers 1.5 s after the update; 500 calls sent at once meanwhile.
    const child = await subscribed("slow://1500", "2025-11-25", { PER_CONNECTION: "16" });
    child.send(call("u", "update", "slow://1500"));
    await child.until(() => child.stderr.includes("announced slow://1500"), 10_000, "the update");
    const ids = Array.from({ length: 500 }, (_, i) => `p${i}`);
    for (const id of ids) child.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "answered_checks" } });
    await child.until(
      () => child.messages().filter((message) => ids.includes(String(message.id))).length === 500,
      20_000,
      "every answer",
    );
    const before = child
      .messages()
      .filter((message) => ids.includes(String(message.id)) && JSON.stringify(message).includes('"text":"0"'));
    // Was: all 500 were read and run while the check waited, their answers held in memory, as many as
    // the client sent (no bound but the 10 s of the check). Now the reading waits once 16 messages are
    // held (the update, its call's answer and 14 of these), and goes on when the check has answered.
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThanOrEqual(16);
    // Nothing is lost or reordered: the update, then every answer in the order sent.
    const order = child
      .messages()
      .filter((message) => message.id === "u" || ids.includes(String(message.id)) || message.method);
    expect(order.map((message) => message.id ?? message.method)).toEqual([
      "notifications/resources/updated",
      "u",
      ...ids,
    ]);
    child.process.stdin.end();
    await within(child.exited, 30_000, "the server to exit");
  });
});

/** Opens listen `L` (2026-07-28) on `uri`'s updates, then has call `c` update `uri`: answers what the listen asked for. */
async function listenThenUpdate(child: Child, uri: string) {
  const notifications = { resourceSubscriptions: [uri] };
  child.send({
    jsonrpc: "2.0",
    id: "L",
    method: "subscriptions/listen",
    params: { _meta: MODERN_META, notifications },
  });
  await child.until(() => child.messages().length > 0, 10_000, "the listen's acknowledgement");
  const update = call("c", "update", uri);
  child.send({ ...update, params: { ...update.params, _meta: MODERN_META } });
  return notifications;
}

describe("a 2026-07-28 listen stream's update whose check waits", () => {
  it("holds nothing of the other requests on the same pipe: each listen is a request of its own", async () => {
    const child = new Child({}, SCRIPT);
    const notifications = await listenThenUpdate(child, "slow://2000");
    const listen = { "io.modelcontextprotocol/subscriptionId": "L" };
    await child.until(() => child.messages().length === 3, 10_000, "the response and the listen's update");
    // The response first, the update once its check has answered 2 s later. The listen keeps the order
    // of its own stream; the other requests on the pipe, which may be of unrelated conversations
    // (2026-07-28 "stdio"), are not held behind it, as over HTTP, where each has its own stream.
    expect(child.messages()).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { notifications, _meta: listen },
      },
      {
        jsonrpc: "2.0",
        id: "c",
        result: {
          content: [{ type: "text", text: "updated" }],
          resultType: "complete",
          _meta: { "io.modelcontextprotocol/serverInfo": { name: "stdio-held", version: "1.0.0" } },
        },
      },
      {
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri: "slow://2000", _meta: listen },
      },
    ]);
    child.process.stdin.end();
    await within(child.exited, 30_000, "the server to exit");
  });

  it("is sent before the listen's final result when the process gets SIGTERM", async () => {
    const child = new Child({}, SCRIPT);
    await listenThenUpdate(child, "slow://300");
    await child.until(() => child.stderr.includes("announced slow://300"), 10_000, "the update");
    child.process.kill("SIGTERM");
    const exit = await within(child.exited, 30_000, "the server to exit");
    expect(exit, child.stderr).toEqual({ code: 0, signal: null });
    const listen = { "io.modelcontextprotocol/subscriptionId": "L" };
    // Was: the listen's final result alone, its update dropped as the server closed.
    const written = child.lines.filter((line) => line !== "" && line !== "served").map((line) => JSON.parse(line));
    expect(
      written.filter((message) => message.id === "L" || message.method === "notifications/resources/updated"),
    ).toEqual([
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "slow://300", _meta: listen } },
      {
        jsonrpc: "2.0",
        id: "L",
        result: {
          resultType: "complete",
          _meta: { "io.modelcontextprotocol/serverInfo": { name: "stdio-held", version: "1.0.0" }, ...listen },
        },
      },
    ]);
  });
});
