import {
  isObject,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from "../core/jsonrpc.js";
import type { InputRequest } from "../core/types.js";
import type { AskingConnection, ConnectionQuestions } from "./carried.js";

export type { Asker, AskingConnection } from "./carried.js";

/** Why a question of a cancelled request fails, for the handler that asked. */
const CANCELLED = "The request that asked was cancelled.";

/**
 * A legacy connection's own requests to its client (2025-11-25 "Sampling", "Elicitation", "Roots"):
 * what awaits an answer, and the URL-mode elicitations that may still be reported complete. Made by
 * the connection's first question (the asking layer loads with it): a connection that asks nothing
 * carries none of it.
 */
export class Questions implements ConnectionQuestions {
  readonly #connection: AskingConnection;
  readonly #pending = new Map<RequestId, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  /** The URL-mode elicitations of this connection that may still be reported complete, and how. */
  readonly #elicitations = new Map<string, () => void>();
  /** Those of them the user accepted, oldest first: what makes room past limits.maxUrlElicitationsPerSession. */
  readonly #accepted = new Set<string>();
  /**
   * The questions asked before the session was initialized, by id, each sending itself: held until
   * `notifications/initialized` (2025-11-25 "Lifecycle": the server SHOULD NOT send requests other
   * than pings before it; a client may pipeline a request before it), within the question's own
   * bounds (askTimeoutMs, the request's cancellation). Made by the first.
   */
  #unsent: Map<RequestId, () => void> | undefined;
  #nextId = 0;
  /**
   * Random per connection: the copies of one shared session on several instances (docs/scaling.md)
   * each ask, and the client tells their requests apart, and answers them, by id alone (JSON-RPC).
   */
  readonly #idPrefix = `picomcp-${crypto.randomUUID().slice(0, 8)}-`;

  constructor(connection: AskingConnection) {
    this.#connection = connection;
  }

  /** See `Connection.ask`. */
  ask(
    request: InputRequest,
    signal: AbortSignal | undefined,
    via: (message: JsonRpcMessage) => void,
  ): Promise<unknown> {
    const id = `${this.#idPrefix}${++this.#nextId}`;
    const timeout = this.#connection.dispatcher.registry.askTimeoutMs;
    const elicitationId = request.params?.mode === "url" ? request.params.elicitationId : undefined;
    if (typeof elicitationId === "string") {
      const refused = this.#awaitCompletion(elicitationId);
      if (refused) return Promise.reject(refused);
    }
    return new Promise((resolve, reject) => {
      // Cancelled before it was asked (between the handler's question and its round, or by a
      // cancellation read as the session became initialized, settling): it is never sent.
      if (signal?.aborted) {
        reject(new Error(CANCELLED));
        return;
      }
      // However the question settles, its timer and its abort listener go with it: a handler may ask
      // many times in one request, whose signal would otherwise gather a listener per question.
      const settled = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", cancelled);
      };
      const give = (why: string) => {
        if (!this.#pending.delete(id)) return;
        settled();
        // One still held was never sent: there is nothing to cancel.
        if (!this.#unsent?.delete(id)) {
          via({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: why } });
        }
        reject(new Error(why));
      };
      const cancelled = () => give(CANCELLED);
      const timer = setTimeout(() => {
        const seconds = timeout / 1000;
        give(
          this.#unsent?.has(id)
            ? `The client did not send notifications/initialized within ${seconds} s, so ${request.method} could not be sent (a server may send no request before it).`
            : `The client did not answer ${request.method} within ${seconds} s.`,
        );
      }, timeout);
      signal?.addEventListener("abort", cancelled, { once: true });
      this.#pending.set(id, {
        resolve: (result) => {
          settled();
          resolve(result);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      });
      const message: JsonRpcRequest = { jsonrpc: "2.0", id, method: request.method };
      if (request.params) message.params = request.params;
      this.#send(id, () => via(message));
    }).then(
      (result) => {
        // Only an accepted URL elicitation goes on out of band: nothing will complete the others.
        if (typeof elicitationId !== "string") return result;
        if (isObject(result) && result.action === "accept") {
          if (this.#elicitations.has(elicitationId)) this.#accepted.add(elicitationId);
        } else this.#forget(elicitationId);
        return result;
      },
      (error: unknown) => {
        if (typeof elicitationId === "string") this.#forget(elicitationId);
        throw error;
      },
    );
  }

  /** Sends a question now, or once the session is initialized and settled (see #unsent, Session.settling). */
  #send(id: RequestId, send: () => void): void {
    const session = this.#connection.session;
    if (!session || (session.initialized && !session.settling)) {
      send();
      return;
    }
    this.#unsent ??= new Map();
    this.#unsent.set(id, send);
    session.onInitialized = () => {
      session.onInitialized = undefined;
      const unsent = this.#unsent;
      this.#unsent = undefined;
      for (const held of unsent?.values() ?? []) held();
    };
  }

  /** Routes the client's answer to the request of ours that awaits it; unknown ids are ignored. */
  settle(response: JsonRpcResponse): void {
    const id = response.id;
    const pending = id === undefined ? undefined : this.#pending.get(id);
    if (!pending || id === undefined) return;
    this.#pending.delete(id);
    if (response.error) pending.reject(new Error(refusal(response.error)));
    else pending.resolve(response.result);
  }

  asked(): RequestId[] {
    return [...this.#pending.keys()];
  }

  /**
   * Lets `server.completeElicitation(elicitationId)` reach this connection (2025-11-25 "Elicitation"),
   * or answers why the elicitation may not be sent. Its id must be unique within the server: one
   * still in use would make the completion of one of the two reach the other's client, and the
   * other's never come. Checked among this process's sessions only: instances sharing state record
   * no ids, so two of them can each send one (docs/scaling.md says what a completion then does).
   * The ones a connection keeps are bounded (limits.maxUrlElicitationsPerSession):
   * an accepted elicitation waits for `completeElicitation` as long as the connection lives, and a
   * user who never finishes the page leaves it there, so past the limit the oldest accepted one is
   * forgotten (its notification, a MAY, is not sent); when every one kept still waits for the user's
   * answer, none can go, and the question fails.
   */
  #awaitCompletion(elicitationId: string): Error | undefined {
    const { urlElicitations, limits } = this.#connection.dispatcher;
    if (urlElicitations.has(elicitationId)) {
      return new Error(
        `elicitationId "${elicitationId}" is in use: a URL-mode elicitation with this id was sent and is not complete yet, and each must have its own (2025-11-25 "Elicitation": unique within the server). Give this ctx.elicitUrl an elicitationId of its own, or call server.completeElicitation("${elicitationId}") first.`,
      );
    }
    const max = limits.maxUrlElicitationsPerSession;
    if (this.#elicitations.size >= max) {
      const [oldest] = this.#accepted;
      if (oldest === undefined) {
        return new Error(
          `Could not send the link: this session has ${max} URL-mode elicitations waiting for the user's answer already (limits.maxUrlElicitationsPerSession = ${max}); wait for the user to answer them, then ask again.`,
        );
      }
      this.#forget(oldest);
    }
    const complete = () => {
      this.#elicitations.delete(elicitationId);
      this.#accepted.delete(elicitationId);
      const params = { elicitationId };
      this.#connection.send({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params });
    };
    this.#elicitations.set(elicitationId, complete);
    urlElicitations.set(elicitationId, complete);
    return undefined;
  }

  #forget(elicitationId: string): void {
    const complete = this.#elicitations.get(elicitationId);
    this.#elicitations.delete(elicitationId);
    this.#accepted.delete(elicitationId);
    const waiting = this.#connection.dispatcher.urlElicitations;
    if (complete && waiting.get(elicitationId) === complete) waiting.delete(elicitationId);
  }

  /** The connection closed: nothing more will complete, and nothing pending will be answered. */
  close(reason: string): void {
    this.#unsent = undefined;
    for (const elicitationId of [...this.#elicitations.keys()]) this.#forget(elicitationId);
    for (const pending of this.#pending.values()) pending.reject(new Error(reason));
    this.#pending.clear();
  }
}

/**
 * Tells the client that was sent a URL-mode elicitation that its out-of-band step is done
 * (`notifications/elicitation/complete`, 2025-11-25; 2026-07-28 has no such notification), from the
 * server's `waiting` elicitations (`Dispatcher.urlElicitations`). Answers whether a session was waiting for it.
 */
export function completeElicitation(waiting: Map<string, () => void>, elicitationId: string): boolean {
  const complete = waiting.get(elicitationId);
  waiting.delete(elicitationId);
  complete?.();
  return complete !== undefined;
}

/**
 * What the client's error answer tells the handler that asked: its message and code, where it is an
 * error object (JSON-RPC 2.0 §5.1: an integer code, a string message); a client may send anything.
 */
function refusal(error: unknown): string {
  if (isObject(error) && typeof error.message === "string" && Number.isInteger(error.code)) {
    return `The client refused: ${error.message} (${error.code})`;
  }
  return "The client refused, with an error that is not a JSON-RPC error object (an integer code, a string message), so it did not say why";
}
