// An HTTP server protected by OAuth with opaque access tokens: `picomcp/introspection` on top of the HTTP server.
import { z } from "zod";
import { pico } from "../../src/index.js";
import { introspectionVerifier } from "../../src/introspection.js";

const server = pico({
  name: "size-introspection",
  version: "1.0.0",
  auth: {
    verify: introspectionVerifier({
      endpoint: "https://auth.example.com/introspect",
      clientId: "mcp-server",
      clientSecret: "secret",
    }),
    resource: "https://mcp.example.com/mcp",
    authorizationServers: ["https://auth.example.com"],
  },
}).tool("add", {
  description: "Add two numbers.",
  input: z.object({ a: z.number(), b: z.number() }),
  auth: { scopes: ["math"] },
  run: ({ a, b }) => String(a + b),
});

export default server;
