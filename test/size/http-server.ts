// A full dual-era Streamable HTTP server: what `npm start` style deployments load.
import { z } from "zod";
import { pico } from "../../src/index.js";

const server = pico({ name: "size-http", version: "1.0.0" }).tool("add", {
  description: "Add two numbers.",
  input: z.object({ a: z.number(), b: z.number() }),
  run: ({ a, b }) => String(a + b),
});

await server.serve({ port: 3000 });
export default server;
