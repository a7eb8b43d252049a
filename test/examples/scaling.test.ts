/**
 * examples/scaling/: two instances of server.ts on a real Redis behind balancer.ts, all child
 * processes, driven through the balancer: a 2025-11-25 session served by both instances, a task
 * created on one and answered and finished through the other. Skipped without redis-server (the
 * reason says how to install it), failed then under PICOMCP_REQUIRE_REDIS.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { within } from "../http-helpers.js";
import { LegacyClient, ModernClient } from "../redis/clients.js";
import { haveRedis, MISSING, REQUIRED, RedisServer } from "../redis/redis-server.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const AVAILABLE = haveRedis();
const children: ChildProcess[] = [];
let redis: RedisServer | undefined;
let url = "";

/** Runs an example file; resolves with the first URL it prints on stderr. */
function run(file: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  children.push(child);
  let stderr = "";
  return within(
    new Promise<string>((resolve, reject) => {
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        const found = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(stderr);
        if (found) resolve(found[0]);
      });
      child.on("exit", (code) => reject(new Error(`${file} exited with ${code}: ${stderr}`)));
    }),
    20_000,
    `${file}'s start`,
  );
}

beforeAll(async () => {
  if (!AVAILABLE) {
    if (REQUIRED) throw new Error(`${MISSING} (PICOMCP_REQUIRE_REDIS is set, so Redis is required)`);
    return;
  }
  redis = await RedisServer.start();
  const env = { REDIS_URL: redis.url, MCP_STATE_KEY: "an example key of at least 32 bytes", PORT: "0", STEP_MS: "10" };
  const instances = await Promise.all([run("examples/scaling/server.ts", env), run("examples/scaling/server.ts", env)]);
  url = await run("examples/scaling/balancer.ts", { BACKENDS: instances.join(","), PORT: "0" });
}, 60_000);

beforeEach((ctx) => {
  if (!AVAILABLE) ctx.skip(MISSING);
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await redis?.close();
});

describe("the scaling example", () => {
  it("serves one 2025-11-25 session from both instances", async () => {
    const legacy = new LegacyClient(url);
    await legacy.open();
    const answers = new Set<string>();
    for (let call = 0; call < 4; call++) {
      const { result } = await legacy.result("tools/call", { name: "whoami" });
      answers.add((result.content as { text: string }[])[0]!.text);
    }
    expect(answers.size).toBe(2);
  });

  it("answers a task through the other instance", async () => {
    const modern = new ModernClient(url);
    const created = await modern.result("tools/call", { name: "approve_deploy", arguments: { version: "v2" } });
    const taskId = created.taskId as string;
    const asking = await modern.until(taskId, (task) => task.status === "input_required");
    const [key] = Object.keys(asking.inputRequests as object);
    await modern.result("tasks/update", {
      taskId,
      inputResponses: { [key!]: { action: "accept", content: { confirm: true } } },
    });
    const done = await modern.until(taskId, (task) => task.status === "completed");
    expect(done.result).toMatchObject({ content: [{ type: "text", text: "deployed v2" }] });
  });
});
