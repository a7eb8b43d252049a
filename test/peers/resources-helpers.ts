/**
 * What the resource peer tests share: how to start test/fixtures/resources-server.ts over stdio,
 * and a tap that records every message a client transport sends and receives, before the client
 * sees it, so the tests can check the wire and not only what the client chose to surface.
 */
import { expect, vi } from "vitest";
import { README } from "../fixtures/resources-server.js";
import { tsxProgram } from "./fixture.js";

/** Spawn parameters for the fixture, in the shape both SDK stdio transports accept. */
export function resourcesFixture(env: Record<string, string> = {}) {
  return tsxProgram("test/fixtures/resources-server.ts", env);
}

export type Message = Record<string, unknown> & {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  result?: Record<string, unknown>;
};

export interface Wire {
  readonly sent: Message[];
  readonly received: Message[];
}

type Tappable = {
  send(message: Message, ...rest: unknown[]): Promise<void>;
  onmessage?: (message: Message, ...rest: unknown[]) => void;
};

/** Records the transport's traffic in both directions; call it before `client.connect`. */
export function tap(transport: object): Wire {
  const wire: Wire = { sent: [], received: [] };
  const target = transport as Tappable;
  const send = target.send.bind(target);
  target.send = (message, ...rest) => {
    wire.sent.push(message);
    return send(message, ...rest);
  };
  let handler: Tappable["onmessage"];
  Object.defineProperty(target, "onmessage", {
    configurable: true,
    get: () =>
      handler &&
      ((message: Message, ...rest: unknown[]) => {
        wire.received.push(message);
        handler!(message, ...rest);
      }),
    set: (value: Tappable["onmessage"]) => {
      handler = value;
    },
  });
  return wire;
}

/** Waits, bounded, until `check` passes. */
export function until(check: () => void, timeout = 3000): Promise<void> {
  return vi.waitFor(check, { timeout, interval: 5 });
}

export const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** The subscription a notification is tagged with, if any. */
export const tagOf = (message: Message): unknown => message.params?._meta?.[SUBSCRIPTION_ID];

/** The URIs resources/list must show, in registration order: fixed ones, and the users template's list. */
export const LISTED_URIS = [
  "docs://readme",
  "users://ada/profile",
  "users://alan/profile",
  "users://grace/profile",
  "files://logo.png",
  "bundle://report",
];

/** What the fixture's `progress` tool reports for 3 steps. */
export const STEPS = [1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step} of 3` }));

/**
 * The progress notifications on the wire before the response to request `id`, as the server sent
 * them. The SDK clients hand progress to `onprogress` a microtask late and drop what shares a read
 * with the response, so a test reads the server's behaviour here, and the callback's as a prefix.
 */
export function progressOn(wire: Wire, id: string | number): unknown[] {
  const end = wire.received.findIndex((message) => message.id === id && "result" in message);
  expect(end).toBeGreaterThan(-1);
  return wire.received
    .slice(0, end)
    .filter((message) => message.method === "notifications/progress")
    .map((message) => message.params);
}

export const USER_TEMPLATE = {
  uriTemplate: "users://{id}/profile",
  name: "user-profile",
  title: "User profile",
  description: "A user's profile, by id.",
  mimeType: "application/json",
};

export const CODE_REVIEW = {
  name: "code_review",
  title: "Code review",
  description: "Review a piece of code.",
  arguments: [
    { name: "language", description: "The language the code is in", required: true },
    { name: "code", description: "The code to review", required: true },
    { name: "focus", description: "What to look at first", required: false },
  ],
};

export const CODE_REVIEW_RESULT = {
  description: "A Go review",
  messages: [
    { role: "user", content: { type: "text", text: "Review this Go code, looking at errors first:\nx := f()" } },
    {
      role: "assistant",
      content: { type: "text", text: "I will read it and list the problems, most serious first." },
    },
  ],
};

export const MISSING_CODE =
  'Invalid arguments for prompt "code_review":\ncode: Invalid input: expected string, received undefined';

export function expectReadme(resource: unknown): void {
  expect(resource).toEqual(README);
}
