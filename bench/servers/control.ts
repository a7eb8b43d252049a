/**
 * The side channel of the HTTP servers: they announce their port on stdout, and answer the driver's
 * commands on stdin: `heap` (collect garbage, then report `heapUsed`; needs --expose-gc) and `exit`.
 * The server also exits when its stdin closes, so a driver that dies leaves no server behind.
 */
export function control(port: number): void {
  process.stdout.write(`bench:listening ${port}\n`);
  let buffer = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf("\n");
    while (newline !== -1) {
      command(buffer.slice(0, newline).trim());
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf("\n");
    }
  });
  process.stdin.on("end", () => process.exit(0));
}

function command(line: string): void {
  if (line === "exit") process.exit(0);
  if (line === "heap") {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new Error("heap needs node --expose-gc");
    for (let i = 0; i < 4; i++) gc();
    process.stdout.write(`bench:heap ${process.memoryUsage().heapUsed}\n`);
  }
}

/** The server mode the driver asked for: `modern` (2026-07-28), `stateless` (legacy, no sessions) or `sessions`. */
export function mode(): "modern" | "stateless" | "sessions" {
  const value = process.argv[2];
  if (value === "modern" || value === "stateless" || value === "sessions") return value;
  throw new Error(`mode must be modern, stateless or sessions; got ${value}`);
}
