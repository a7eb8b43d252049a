/**
 * Resource updates of a 2025-11-25 session shared by two instances on a real Redis, under `auth`
 * rules (docs/authorization.md, "What a refused caller sees"): an update goes to the session's
 * caller only for a URI `resources/read` would admit them to, on the instance holding its GET
 * stream as on one instance (test/auth-subscriptions.test.ts), whichever instance the
 * `resources/subscribe` and the stream landed on; and an update it may read still reaches it there.
 * The official v1 client, with bob's signed token, sends its GET to one instance and its POSTs to
 * the other, as a balancer without sticky sessions may; the updates are published on either
 * instance. Two servers on 127.0.0.1; every wait is bounded. Skipped (with the install command as
 * the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { testIssuer } from "../../src/testing.js";
import { signal, within } from "../http-helpers.js";
import { BOUND_MS, busLoss } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING } from "./shared-state.js";

const redis = useRedisServer();
let prefixes = 0;

const { opened, userState } = busLoss(redis);
/** The resource every instance serves, whatever URL it listens on: the audience of the tokens. */
const RESOURCE = "http://localhost/mcp";
const issuer = await testIssuer({ audience: RESOURCE });

/** Updates of other users' notes and of the board, which bob may not read, then of his own. */
const UPDATES = ["notes://ada/1", "notes://bob/2", "notes://board/3", "notes://ada/4", "notes://bob/5"];

type Server = Awaited<ReturnType<typeof instance>>["server"];

/** An instance named `name` (its Redis user) sharing its state under `prefix`, listening on 127.0.0.1. */
async function instance(name: string, prefix: string) {
  const server = pico({
    name: "shared-updates-auth",
    ...SHARING,
    state: await userState(name, prefix),
    auth: { verify: issuer.verify, resource: RESOURCE, authorizationServers: [issuer.issuer], required: false },
  })
    .resource("notes://{owner}/{id}", {
      auth: { scopes: ["notes:read"], allow: (identity, { owner }) => identity.subject === owner },
      read: ({ owner, id }) => `${owner}'s note ${id}`,
    })
    .resource("notes://board/{id}", { auth: { roles: ["editor"] }, read: ({ id }) => `board ${id}` });
  const listening = await server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => listening.close());
  return { server, url: new URL(listening.url) };
}

describe("resource updates of a shared 2025-11-25 session, to a caller who may read some of them (official v1 client)", () => {
  // Where the client's POSTs (initialize, resources/subscribe) go, where its GET stream goes, and
  // which instance publishes the updates.
  const cases = [
    { posts: "a", stream: "b", publisher: "a" },
    { posts: "a", stream: "b", publisher: "b" },
    { posts: "b", stream: "a", publisher: "a" },
  ] as const;
  for (const { posts, stream, publisher } of cases) {
    it(`subscribed on instance ${posts}, streamed on ${stream}, published on ${publisher}: only the URIs bob may read`, async () => {
      const prefix = `updates-auth-${prefixes++}:`;
      const instances = { a: await instance(`ua${prefixes}`, prefix), b: await instance(`ub${prefixes}`, prefix) };
      const bob = await issuer.mint({ subject: "bob", scopes: ["notes:read"] });
      const streaming = signal();
      const routed: typeof fetch = async (_input, init) => {
        const get = init?.method === "GET";
        const to = instances[get ? stream : posts].url;
        const response = await fetch(new URL(to.pathname, to), init);
        if (get && response.ok) streaming.resolve();
        return response;
      };
      const transport = new StreamableHTTPClientTransport(instances[posts].url, {
        fetch: routed,
        requestInit: { headers: { authorization: `Bearer ${bob}` } },
      });
      const client = new Client({ name: "v1", version: "1.0.0" });
      const updated: string[] = [];
      const last = signal();
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        updated.push(notification.params.uri);
        if (notification.params.uri === UPDATES.at(-1)) last.resolve();
      });
      await client.connect(transport);
      opened.push(() => client.close());
      // By prefix and by name: ada's note is named, and under the prefix too.
      for (const uri of ["notes:", "notes://ada/1"]) await client.subscribeResource({ uri });
      await within(streaming.promise, BOUND_MS, `the client's GET stream on instance ${stream}`);
      const server: Server = instances[publisher].server;
      for (const uri of UPDATES) server.resourceUpdated(uri);
      await within(last.promise, BOUND_MS, `the update of ${UPDATES.at(-1)}`);
      // Was: every update on the instance whose copy of the session had not run the subscribe, ada's
      // and the board's too (its copy had no read check, and none meant allowed).
      expect(updated).toEqual(["notes://bob/2", "notes://bob/5"]);
    });
  }
});
