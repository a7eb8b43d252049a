/** Runs the `picomcp` command from source as a child process (under tsx, as Node 20 needs for TypeScript). */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = fileURLToPath(new URL("../../src/bin.ts", import.meta.url));
export const FIXTURE = "test/fixtures/cli-server.ts";

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function picomcp(args: string[], options: { env?: Record<string, string>; input?: string } = {}): Ran {
  const child = spawnSync(process.execPath, ["--import", "tsx", BIN, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...options.env },
    input: options.input ?? "",
    timeout: 30_000,
  });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}
