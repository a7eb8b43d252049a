import { ownerKey } from "../auth/owner.js";
import { NO_ANSWERS, type RequestContext } from "../core/context.js";
import type { Call, Dispatcher } from "../core/dispatch.js";
import { ErrorCode, McpError, messageOf } from "../core/errors.js";
import { isObject } from "../core/jsonrpc.js";
import { AskFailure, isRound } from "./ask.js";
import type { Asking, Round, RoundsRequest } from "./carried.js";
import type { Asker } from "./questions.js";
import { digest, MAX_STATE_BYTES, type StatePayload, StateSealer, stateId } from "./request-state.js";
import { MemoryUsedStates, sharedUsedStates, type UsedStates } from "./used-states.js";

type Result = Record<string, unknown>;

/** More rounds than this is a handler that keeps asking; it ends with an error instead of looping forever. */
const MAX_ROUNDS = 16;

/** What one run of a handler knows: the answers so far (and those offered up front), and why nobody can answer, if nobody can. */
type RunAnswers = Pick<Asking, "answers" | "offered" | "unreachable">;

/** Runs a handler once; answers with the round when it stopped at a question nobody has answered yet. */
async function runOnce(
  run: () => Result | Promise<Result>,
  ctx: RequestContext,
  known: RunAnswers,
): Promise<Result | Round> {
  ctx.round = undefined;
  try {
    // One promise settled by whichever comes first: the handler's result, or the round getting stuck.
    return await new Promise<Result | Round>((resolve, reject) => {
      ctx.asking = { ...known, stuck: () => resolve(ctx.round!) };
      const result = run();
      if (result instanceof Promise) result.then(resolve, reject);
      else resolve(result);
    });
  } finally {
    ctx.asking = undefined;
    ctx.round = undefined;
  }
}

/** How a server keeps the state of its 2026-07-28 rounds: sealed in `requestState`, each accepted once. */
export interface StateKeeping {
  readonly sealer: StateSealer;
  readonly used: UsedStates;
}

const keepings = new WeakMap<object, StateKeeping>();

/**
 * A server's sealer and record of used states (by its `states`), made on first use: Workers forbid
 * random numbers outside a request. One record per key: a state sealed here is accepted once by this process.
 */
function keepingOf({ states }: Pick<RoundsRequest, "states">): StateKeeping {
  let keeping = keepings.get(states);
  if (!keeping) {
    const used = sharedUsedStates.get(states) ?? new MemoryUsedStates(states.maxUsedStates);
    keeping = { sealer: new StateSealer(states.stateKey), used };
    keepings.set(states, keeping);
  }
  return keeping;
}

/**
 * Runs a request whose handler asked (or a 2026-07-28 retry) in the rounds of its era, from the round
 * its first run stopped at, if any: the dispatcher's `rounds`. Made into a `RoundsRequest` here, in
 * the layer loaded with the first question, so that every server's core does not carry that.
 */
export function runRounds(
  { message, method, ctx, exchange }: Call,
  { registry, states }: Pick<Dispatcher, "registry" | "states">,
): Promise<Result> {
  const request: RoundsRequest = {
    run: () => method.run(registry, message.params, ctx),
    ctx,
    method: message.method,
    params: message.params,
    ask: exchange.ask,
    states,
    first: ctx.round,
  };
  return ctx.era === "modern" ? modernRounds(request, keepingOf(request)) : legacyRounds(request);
}

/** A handler to run in rounds: what runs it once, its request's context, and the round its first run stopped at, if any. */
type Rounds = Pick<RoundsRequest, "run" | "ctx"> & { readonly first?: Round | undefined };

/** A 2026-07-28 request to run in rounds: its method and params are what its state is bound to. */
type ModernRounds = Rounds & Pick<RoundsRequest, "method" | "params">;

/** A 2025 request to run in rounds: how it asks its client, undefined where there is no way back. */
type LegacyRounds = Rounds & { readonly ask: Asker | undefined };

/**
 * 2026-07-28 multi round-trip requests (§3): each round is a separate request. The answers so far
 * travel sealed in `requestState`, merged with this round's `inputResponses` (keys not asked are
 * ignored); a handler that stops at a question ends the request with an `input_required` result.
 * Answers count only with the state of the round that asked them, and a state only once (§3.4).
 * `first` is the round of a first run the dispatcher already made (a request that carried no answers).
 */
export async function modernRounds(request: ModernRounds, keeping: StateKeeping): Promise<Result> {
  const { run, ctx, method, first } = request;
  const { sealer } = keeping;
  const { answers, offered, rounds, digestOf, principal } = await openRetry(request, keeping);
  const round = first ?? (await runOnce(run, ctx, { answers, offered }));
  if (!isRound(round)) return round;
  if (rounds >= MAX_ROUNDS)
    throw new McpError(ErrorCode.InternalError, `The handler asked for input ${MAX_ROUNDS} times without finishing`);
  // Only the answers this run read travel on: keys never asked (or no longer asked) are dropped.
  const payload: StatePayload = {
    i: stateId(),
    m: method,
    d: await digestOf(),
    p: principal,
    e: Date.now() + sealer.ttlMs,
    a: Object.fromEntries(round.used),
    q: [...round.asked.keys()],
    r: rounds + 1,
  };
  const sealed = await sealer.seal(payload);
  if (sealed.length > MAX_STATE_BYTES) {
    // The client would send it back only to have it refused: fail now, and say why.
    throw new McpError(
      ErrorCode.InternalError,
      `The answers collected so far are too large to carry in requestState (${sealed.length} bytes, at most ${MAX_STATE_BYTES}); ask for less at a time`,
    );
  }
  return { resultType: "input_required", inputRequests: Object.fromEntries(round.asked), requestState: sealed };
}

/** A 2026-07-28 request that may retry a round: its caller, method and params, which its state must match. */
type Retried = Pick<RoundsRequest, "method" | "params"> & { readonly ctx: Pick<RequestContext, "auth"> };

/** What a retry carried: the answers its sealed state vouches for, and what the next state needs. */
interface Retry {
  readonly answers: Map<string, unknown>;
  /** Answers to keys no round asked, for questions asked `upFront`. */
  readonly offered: Map<string, unknown>;
  readonly rounds: number;
  readonly digestOf: () => Promise<string>;
  readonly principal: string;
}

/**
 * Opens a 2026-07-28 request's `requestState` and merges this round's `inputResponses` into the
 * answers it carried; no state, no answers. A state that is forged, expired, used or another
 * request's is refused with -32602.
 */
async function openRetry({ ctx, method, params }: Retried, keeping: StateKeeping): Promise<Retry> {
  const { sealer } = keeping;
  const { inputResponses, requestState, _meta, ...salient } = params ?? {};
  if (inputResponses !== undefined && !isObject(inputResponses)) {
    throw new McpError(ErrorCode.InvalidParams, "Invalid params: inputResponses must be an object of answers by key");
  }
  // Hashing the params costs a little; a request that is not a retry and asks nothing never pays it.
  let paramsDigest: Promise<string> | undefined;
  const digestOf = () => (paramsDigest ??= digest(salient));
  const principal = principalOf(ctx);
  const answers = new Map<string, unknown>();
  let rounds = 0;
  let askedBefore: string[] | undefined;
  if (requestState !== undefined) {
    const opened = typeof requestState === "string" ? await sealer.open(requestState) : "requestState must be a string";
    if (typeof opened === "string") throw new McpError(ErrorCode.InvalidParams, `Invalid requestState: ${opened}`);
    if (opened.m !== method || opened.d !== (await digestOf()) || opened.p !== principal) {
      throw new McpError(
        ErrorCode.InvalidParams,
        "Invalid requestState: it belongs to a different request or caller; send this one without it",
      );
    }
    let claimed = keeping.used.claim(opened.i, opened.e);
    if (claimed instanceof Promise) claimed = await claimed;
    if (!claimed) {
      throw new McpError(
        ErrorCode.InvalidParams,
        "Invalid requestState: it was already used (a requestState is good for one retry). Start the call again: send the request without requestState and inputResponses",
      );
    }
    for (const [key, answer] of Object.entries(opened.a)) answers.set(key, answer);
    rounds = opened.r;
    askedBefore = opened.q;
  }
  // This server asks with a requestState every time, so answers without one answer no question of
  // its: only a question asked `upFront` takes them, and the others are asked (§3.3: missing answers
  // SHOULD be asked again, unknown ones SHOULD be ignored). With one, the keys its round asked count.
  const offered = new Map<string, unknown>();
  for (const [key, answer] of Object.entries(inputResponses ?? {})) {
    (askedBefore?.includes(key) ? answers : offered).set(key, answer);
  }
  return { answers, offered, rounds, digestOf, principal };
}

/**
 * The answers a 2026-07-28 retry carries, checked as the rounds check them (its state claimed, so
 * it is good once): for a layer that goes on from them elsewhere (tasks/: the round that answers an
 * `askFirst` tool's questions starts its task).
 */
export async function retryAnswers(request: Retried & Pick<RoundsRequest, "states">): Promise<Map<string, unknown>> {
  const retry = await openRetry(request, keepingOf(request));
  return retry.answers;
}

/**
 * Who the state is bound to: the verified caller (issuer and subject) when the request carried one,
 * "" for anonymous callers, so a state minted for one user is refused for another (§3.4: SHOULD).
 */
function principalOf(ctx: Pick<RequestContext, "auth">): string {
  const auth = ctx.auth;
  return typeof auth?.subject === "string" ? ownerKey(auth) : "";
}

/**
 * The same handler semantics over a 2025 session: the questions of a round go to the client as
 * real requests, and the handler runs again from the top with the answers. Without a way back to
 * the client (stateless HTTP), asking is a tool error that says so. `first` is the round of a
 * first run the dispatcher already made.
 */
export async function legacyRounds(request: LegacyRounds, noWayBack: string | true = true): Promise<Result> {
  const { run, ctx, ask: asker, first } = request;
  // The answers collected so far: the first run has none.
  const known = new Map<string, unknown>();
  const unreachable = asker ? undefined : noWayBack;
  for (let rounds = 0; ; rounds++) {
    const answers = rounds === 0 ? NO_ANSWERS : known;
    const round = rounds === 0 && first ? first : await runOnce(run, ctx, { answers, unreachable });
    if (!isRound(round)) return round;
    if (rounds >= MAX_ROUNDS) throw new Error(`The handler asked for input ${MAX_ROUNDS} times without finishing.`);
    await Promise.all(
      [...round.asked].map(async ([key, request]) => {
        try {
          known.set(key, await asker!.ask(request, ctx.signal, ctx.emit));
        } catch (thrown) {
          known.set(key, new AskFailure(messageOf(thrown)));
        }
      }),
    );
    if (ctx.cancelled) return {};
  }
}
