// The HTTP base behind OAuth: picomcp/jwt verifying bearer tokens with the public keys in
// ./jwks.json, which the test writes next to the build (the signing code stays in the test process).
import { readFileSync } from "node:fs";
import { jwtVerifier } from "../../../src/jwt.js";
import { weather } from "./weather.js";

const issuer = "https://auth.test";
const audience = "api://weather";
const keys = JSON.parse(readFileSync("jwks.json", "utf8"));
const server = weather({
  auth: { verify: jwtVerifier({ issuer, keys }), authorizationServers: [issuer], audience },
});
const listening = await server.serve({ port: 0 });
console.error(JSON.stringify({ url: listening.url }));
