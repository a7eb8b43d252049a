/** Deno's own stdout: `write` takes what it can of the bytes, without blocking, and says how many it took. */
interface DenoStdout {
  write(bytes: Uint8Array): Promise<number>;
}

/** Bytes waiting past which a write answers false (backpressure), as Node's stdout does past its 16 KiB. */
const HIGH_WATER = 16 * 1024;

/**
 * On Deno, a write to stdout for the protocol that does not block the process: Deno's
 * `process.stdout.write` writes synchronously, so with the pipe full (a client that does not read)
 * nothing else ran, neither timers, nor other requests, nor a SIGTERM. `Deno.stdout.write` waits
 * for the pipe without blocking. Writes go out in order, one after another; each calls its callback
 * once its chunk is all out, or with the error once the client is gone, and answers false while more
 * than `HIGH_WATER` bytes wait. Undefined elsewhere (Node and Bun write through `process.stdout`).
 */
export function denoStdoutWrite(): ((chunk: string, callback: (error?: unknown) => void) => boolean) | undefined {
  const stdout = (globalThis as { Deno?: { stdout?: DenoStdout } }).Deno?.stdout;
  if (!stdout) return undefined;
  const encoder = new TextEncoder();
  let last: Promise<void> = Promise.resolve();
  let waiting = 0;
  return (chunk, callback) => {
    const bytes = encoder.encode(chunk);
    waiting += bytes.length;
    const done = (error?: unknown) => {
      waiting -= bytes.length;
      callback(error);
    };
    last = last
      .then(async () => {
        for (let at = 0; at < bytes.length; ) at += await stdout.write(bytes.subarray(at));
      })
      .then(() => done(), done);
    return waiting < HIGH_WATER;
  };
}
