/**
 * The smallest load balancer for examples/scaling/server.ts: round robin, no sticky sessions,
 * bodies passed through as they stream (SSE included), an instance that refuses connections skipped.
 *
 *   BACKENDS=http://127.0.0.1:3001,http://127.0.0.1:3002 PORT=3000 node --import tsx examples/scaling/balancer.ts
 *
 * In production use your platform's balancer: any will do, since every instance can answer every request.
 */
import { createServer, request } from "node:http";

const backends = (process.env.BACKENDS ?? "http://127.0.0.1:3001,http://127.0.0.1:3002")
  .split(",")
  .map((url) => new URL(url));
let next = 0;

const balancer = createServer((incoming, outgoing) => {
  const body: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => body.push(chunk));
  incoming.on("end", () => {
    const send = (tries: number) => {
      const backend = backends[next++ % backends.length]!;
      const upstream = request(
        {
          host: backend.hostname,
          port: backend.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          outgoing.on("close", () => answer.destroy());
        },
      );
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "ECONNREFUSED" && tries < backends.length) send(tries + 1);
        else if (!outgoing.headersSent) outgoing.writeHead(502).end();
        else outgoing.destroy();
      });
      upstream.end(Buffer.concat(body));
    };
    send(1);
  });
});

balancer.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  const address = balancer.address();
  const port = typeof address === "object" && address ? address.port : process.env.PORT;
  // Paths pass through: clients use the instances' endpoint path (serve()'s default, /mcp).
  console.error(`balancer on http://127.0.0.1:${port}/mcp -> ${backends.join(", ")}`);
});
