/**
 * The words of asking the client that the core carries without naming them: what a request that may
 * ask carries (`ctx.asking`, `ctx.round`, `Exchange.ask`, through the core's `Carried` slots declared
 * below), and what this layer gives a connection and its own parts through the core's `askingLayer`
 * (the members it adds to context.ts's AskingLayer, below). This layer implements them.
 */
import type { RequestContext, RoundStates } from "../core/context.js";
import type { JsonRpcMessage, JsonRpcResponse, RequestId } from "../core/jsonrpc.js";
import type { InputRequest } from "../core/types.js";
import type { Session } from "../sessions/peer.js";

type Result = Record<string, unknown>;

/**
 * What asks a client (a legacy session's connection, or `server.call`'s onInput). An object, not a
 * function, so that a connection is its own and keeps no closure of itself once it has served a
 * request (96 B of heap of every such idle session).
 */
export interface Asker {
  /** Sends one question to the client and resolves with its answer; `via` is the stream of the request that asks, where there is one. */
  ask(
    request: InputRequest,
    signal: AbortSignal,
    via?: ((message: JsonRpcMessage) => void) | undefined,
  ): Promise<unknown>;
}

/**
 * What the questions use of their connection (transports/connection.ts's Connection, which makes them).
 */
export interface AskingConnection {
  /** The connection's 2025 session: a question asked before it is initialized waits for it. */
  readonly session: Pick<Session, "initialized" | "onInitialized" | "settling"> | undefined;
  readonly dispatcher: {
    readonly registry: { readonly askTimeoutMs: number };
    /** See `Dispatcher.urlElicitations`. */
    readonly urlElicitations: Map<string, () => void>;
    readonly limits: { readonly maxUrlElicitationsPerSession: number };
  };
  send(message: JsonRpcMessage): void;
}

/**
 * How the running handler may ask the client, while a handler that may ask runs (tools/call,
 * prompts/get, resources/read): set by the dispatcher for a first run (by the middleware layer at the
 * end of a chain), by the round runner for the runs after it (see rounds.ts).
 */
export interface Asking {
  /** The answers known when this run started, by key. */
  readonly answers: ReadonlyMap<string, unknown>;
  /** Answers the client sent to questions no round asked it, by key: only a question asked `upFront` takes one. */
  readonly offered?: ReadonlyMap<string, unknown> | undefined;
  /**
   * Set when nobody can answer: true for a legacy request without a way back to its client (stateless
   * HTTP), whose question fails with the asking layer's message for it (ask.ts, so that only a server
   * that asks carries it); the message to fail with otherwise (`server.call` without onInput).
   */
  readonly unreachable?: string | true | undefined;
  /** Called once the run asked something unanswered and had a turn to ask more; default: `ctx.stuck()`. */
  readonly stuck?: (() => void) | undefined;
}

/** The questions of one run of a handler (the asking layer's Round): what the dispatcher hands the round runner. */
export interface Round {
  /** The questions asked and not answered yet, by key, in the order asked. */
  readonly asked: ReadonlyMap<string, InputRequest>;
  /** The answers this run read, by key: all a later round needs to carry. */
  readonly used: ReadonlyMap<string, unknown>;
}

/** A 2025 connection's requests to its client (the asking layer's Questions), made by its first question. */
export interface ConnectionQuestions {
  ask(request: InputRequest, signal: AbortSignal | undefined, via: (message: JsonRpcMessage) => void): Promise<unknown>;
  /** Routes the client's answer to the request that awaits it. */
  settle(response: JsonRpcResponse): void;
  /** The ids of the requests that await an answer. */
  asked(): RequestId[];
  close(reason: string): void;
}

/** One request whose handler asks the client, as the round runner takes it. */
export interface RoundsRequest {
  readonly run: () => Result | Promise<Result>;
  readonly ctx: RequestContext;
  readonly method: string;
  readonly params: Result | undefined;
  /** How a 2025 request asks its client; undefined where there is no way back (stateless HTTP). A 2026-07-28 request (`ctx.era`) has its rounds travel in `requestState` instead. */
  readonly ask: Asker | undefined;
  /** The server's 2026-07-28 round states: the sealed states belong to it (one object per server). */
  readonly states: RoundStates;
  /** The round a first run stopped at, when there was one. */
  readonly first: Round | undefined;
}

declare module "../core/layers.js" {
  interface Carried {
    /** `ctx.asking`: how the running handler may ask. */
    asking: Asking;
    /** `ctx.round`: the questions of the current run. */
    round: Round;
    /** `Exchange.ask`: how a 2025 request asks its client. */
    asker: Asker;
  }
}

/** What the rest of this layer reaches through the core's `askingLayer`, besides what the core calls (the questions, the rounds). */
declare module "../core/context.js" {
  interface AskingLayer {
    /** Reports a legacy URL-mode elicitation complete (`server.completeElicitation`); whether one was waiting. */
    completeElicitation(waiting: Map<string, () => void>, elicitationId: string): boolean;
    /** The requests a 2025 connection sends its client, made by its first question. */
    readonly Questions: new (
      connection: AskingConnection,
    ) => ConnectionQuestions;
  }
}
