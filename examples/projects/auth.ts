/**
 * The project tracker behind OAuth: the same tools, resource and prompt as app.ts, served over
 * Streamable HTTP as an OAuth 2.1 resource server. Reading needs the `projects:read` scope;
 * changing anything needs `projects:write` as well, and a client that lacks it is asked to step up.
 *
 *   OAUTH_ISSUER=https://auth.example.com MCP_RESOURCE=https://mcp.example.com/mcp \
 *     node --import tsx examples/projects/auth.ts
 *
 * OAUTH_JWKS_URL defaults to the issuer's /jwks (check your provider's jwks_uri). Without
 * OAUTH_ISSUER it runs in development mode: an in-memory issuer, and it prints tokens to try with.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Access, type AuthOptions, pico } from "picomcp";
import { jwtVerifier } from "picomcp/jwt";
import { createProjectsServer } from "./app.js";

export const READ = "projects:read";
export const WRITE = "projects:write";

const reads: Access = { scopes: [READ] };
const writes: Access = { scopes: [READ, WRITE] };

/** Who may do what, by tool, resource and prompt: app.ts defines them without auth, this file decides. */
export const RULES: Record<string, Access> = {
  list_projects: reads,
  get_project: reads,
  "projects://{id}": reads,
  status_report: reads,
  create_project: writes,
  update_project: writes,
  archive_project: writes,
};

/** The tracker of app.ts, protected: `auth` says how tokens are checked and where clients sign in. */
export function createProtectedProjectsServer(
  file: string,
  auth: Pick<AuthOptions, "verify" | "resource" | "authorizationServers"> & Partial<AuthOptions>,
) {
  return pico({
    name: "projects",
    version: "1.0.0",
    title: "Project tracker",
    instructions:
      "Tracks the signed-in user's projects. Find projects with list_projects before reading or changing one; every other tool needs a project id such as prj_12. Reading needs the projects:read scope, changing projects:write.",
    auth: { scopesSupported: [READ], rules: RULES, ...auth },
  }).include(createProjectsServer(file));
}

async function main(): Promise<void> {
  const file = process.env.PROJECTS_FILE || fileURLToPath(new URL("data/projects.json", import.meta.url));
  const port = Number(process.env.PORT || 3001);
  const issuerUrl = process.env.OAUTH_ISSUER;
  let verify: AuthOptions["verify"];
  let tokens: string[] = [];
  let issuer = issuerUrl;
  if (issuerUrl) {
    verify = jwtVerifier({ issuer: issuerUrl, jwksUrl: process.env.OAUTH_JWKS_URL || `${issuerUrl}/jwks` });
  } else {
    // Development mode: a throwaway issuer in this process, so there is something to sign tokens.
    const { testIssuer } = await import("picomcp/testing");
    const dev = await testIssuer({ audience: process.env.MCP_RESOURCE || `http://127.0.0.1:${port}/mcp` });
    verify = dev.verify;
    issuer = dev.issuer;
    tokens = [
      `read only:    ${await dev.mint({ subject: "dev-user", scopes: [READ] })}`,
      `read + write: ${await dev.mint({ subject: "dev-user", scopes: [READ, WRITE] })}`,
    ];
  }
  const server = createProtectedProjectsServer(file, {
    verify,
    resource: process.env.MCP_RESOURCE || undefined,
    authorizationServers: [issuer!],
  });
  const listening = await server.serve({ port });
  console.log(`The protected project tracker is listening on ${listening.url} (Streamable HTTP, OAuth).`);
  console.log(`Protected resource metadata: ${new URL("/.well-known/oauth-protected-resource/mcp", listening.url)}`);
  if (tokens.length > 0) {
    console.log("\nDevelopment mode (no OAUTH_ISSUER): send one of these as Authorization: Bearer <token>\n");
    for (const line of tokens) console.log(`  ${line}`);
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void listening.close().then(() => process.exit(0)));
  }
}

// Run, not imported: import.meta.url names the file by its real path (symlinks resolved), argv[1] as typed.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
