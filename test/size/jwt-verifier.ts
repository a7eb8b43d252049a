// An HTTP server protected by OAuth with JWT access tokens: `picomcp/jwt` on top of the HTTP server.
import { z } from "zod";
import { pico } from "../../src/index.js";
import { jwtVerifier } from "../../src/jwt.js";

const server = pico({
  name: "size-jwt",
  version: "1.0.0",
  auth: {
    verify: jwtVerifier({ issuer: "https://auth.example.com", jwksUrl: "https://auth.example.com/jwks" }),
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
