/** Runs the `picomcp` command from source as a child process (under tsx, as Node 20 needs for TypeScript). */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
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

/**
 * Starts the `picomcp` command as a long-running child (`dev`, `run --port`) in a process group of
 * its own, so that `killGroup` ends it with every process it started, whatever state it is in.
 */
export function start(
  args: string[],
  options: { uid?: number; stdin?: "ignore" | "pipe"; env?: Record<string, string> } = {},
): ChildProcess {
  const privileges = options.uid === undefined ? {} : { uid: options.uid, gid: options.uid };
  return spawn(process.execPath, ["--import", "tsx", BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    // A pipe left open stands for a terminal: stdin that does not end.
    stdio: [options.stdin ?? "ignore", "pipe", "pipe"],
    detached: true,
    ...privileges,
  });
}

/** SIGKILL to a child `start` made and to the processes it started; nothing if they are gone. */
export function killGroup(child: ChildProcess | undefined): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // The group is gone already.
  }
}

/** The lines of a stream (a child's stdout or stderr), read as one waits for them. */
export function lines(stream: Readable) {
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: stream }).on("line", (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else queue.push(line);
  });
  /** The lines up to the first matching `matching`, which must come within `ms`. */
  return async (matching: RegExp, ms = 15_000): Promise<string[]> => {
    const seen: string[] = [];
    const deadline = Date.now() + ms;
    for (let read = 0; read < 200; read++) {
      const line =
        queue.shift() ??
        (await new Promise<string>((done, fail) => {
          waiting.push(done);
          setTimeout(
            () => fail(new Error(`no line matching ${matching} within ${ms} ms; saw:\n${seen.join("\n")}`)),
            deadline - Date.now(),
          );
        }));
      seen.push(line);
      if (matching.test(line)) return seen;
    }
    throw new Error(`no line matching ${matching} in 200 lines`);
  };
}

/** Everything a stream has written so far, as it comes. */
export function collect(stream: Readable): { readonly text: string } {
  const collected = { text: "" };
  stream.setEncoding("utf8").on("data", (chunk: string) => {
    collected.text += chunk;
  });
  return collected;
}

/** Resolves with a child's exit code (null if a signal ended it) once it exits, failing after `ms`. */
export function exitOf(child: ChildProcess, ms = 15_000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the process did not exit within ${ms} ms`)), ms);
    child.once("exit", (code) => {
      clearTimeout(timer);
      done(code);
    });
  });
}

/** Resolves once nothing answers at `url` any more, failing if something still does after `ms`. */
export async function stopsAnswering(url: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const answered = await fetch(url, { method: "POST", signal: AbortSignal.timeout(2000) }).then(
      async (response) => {
        await response.body?.cancel();
        return true;
      },
      () => false,
    );
    if (!answered) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`${url} still answers after ${ms} ms`);
}

/** `picomcp` as a user runs it: from `cwd`, under Node flags of their own (a loader, a preload). */
export function picomcpUnder(
  node: string[],
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Ran {
  const child = spawnSync(process.execPath, [...node, BIN, ...args], {
    cwd: options.cwd,
    encoding: "utf8",
    env: { ...process.env, ...options.env },
    input: "",
    timeout: 30_000,
  });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}
