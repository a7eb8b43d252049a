/**
 * The Worker of the Durable Object test on workerd, as docs/http.md shows it: the Worker forwards
 * every request to one Durable Object, which serves the smoke server with legacy sessions on. A
 * Durable Object runs every request it gets in one context, so a session's GET stream, ended by a
 * later DELETE, crosses no request boundary there.
 */
import { smokeServer } from "./server.js";

const server = smokeServer({ http: { sessions: true } });

export class McpSessions {
  fetch(request: Request): Promise<Response> {
    return server.fetch(request);
  }
}

interface Env {
  SESSIONS: {
    idFromName(name: string): unknown;
    get(id: unknown): { fetch(request: Request): Promise<Response> };
  };
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    return env.SESSIONS.get(env.SESSIONS.idFromName("mcp")).fetch(request);
  },
};
