import type { JsonRpcNotification, RequestId } from "./protocol/jsonrpc.js";
import type { ClientCapabilities, Implementation, Meta } from "./protocol/types.js";

/** Which protocol family a request came in on; `local` is an in-process `server.call`. */
export type Era = "modern" | "legacy" | "local";

/** What every handler receives as its second argument, the same in both protocol eras. */
export interface Context {
  /** Aborts when the client cancels the request (or drops its HTTP connection). Pass it on to fetch and friends. */
  readonly signal: AbortSignal;
  /** The request's `_meta`, as the client sent it. */
  readonly meta: Meta | undefined;
  /** The JSON-RPC id of the request; undefined for in-process calls. */
  readonly requestId: RequestId | undefined;
  /** The protocol revision this request is served under. */
  readonly protocolVersion: string;
  readonly era: Era;
  /** The client's self-description and declared capabilities (per request in 2026-07-28, per session before). */
  readonly client: { readonly info: Implementation | undefined; readonly capabilities: ClientCapabilities };
}

export interface RequestInit {
  id: RequestId | undefined;
  meta: Meta | undefined;
  protocolVersion: string;
  era: Era;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities;
}

/**
 * One request in flight. The AbortController is made only when a handler reads `signal`:
 * most calls never do, and building one per message is a measurable cost.
 */
export class RequestContext implements Context {
  readonly meta: Meta | undefined;
  readonly requestId: RequestId | undefined;
  readonly protocolVersion: string;
  readonly era: Era;
  readonly client: Context["client"];
  /** Where notifications about this request go (set by the transport); silent once cancelled or answered. */
  emit: ((message: JsonRpcNotification) => void) | undefined;
  /** Set by HTTP sessions: ends the request's SSE stream now, so the client polls for the result (SEP-1699). */
  closeStream: (() => void) | undefined;
  #controller: AbortController | undefined;
  #cancelled = false;
  #reason: unknown;

  constructor(init: RequestInit) {
    this.requestId = init.id;
    this.meta = init.meta;
    this.protocolVersion = init.protocolVersion;
    this.era = init.era;
    this.client = { info: init.clientInfo, capabilities: init.clientCapabilities };
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#cancelled) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** True once cancelled: the transport then sends nothing more for this request. */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  cancel(reason: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  /** Follows an outside signal (an HTTP request's, or one given to `server.call`). */
  follow(signal: AbortSignal | undefined): void {
    if (!signal) return;
    if (signal.aborted) this.cancel(signal.reason);
    else signal.addEventListener("abort", () => this.cancel(signal.reason), { once: true });
  }
}
