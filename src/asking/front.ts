import { askingLayer, NO_ANSWERS } from "../core/context.js";
import type { Call, Dispatcher } from "../core/dispatch.js";
import type { Asking } from "./carried.js";

type Result = Record<string, unknown>;

/** A first run with a way back to the client: questions end the run, and the era's rounds take over. */
const FIRST_RUN: Asking = { answers: NO_ANSWERS };
/** A first run without one (stateless legacy HTTP): asking fails at once, with the reason. */
const NO_WAY_BACK_RUN: Asking = { answers: NO_ANSWERS, unreachable: true };

/**
 * Installs the front of the asking layer on a dispatcher: how a handler that may ask the client runs
 * (tools/call, prompts/get, resources/read; 2026-07-28 §3.3). Its first run is an ordinary call: a
 * question ends it (`ctx.stuck`), and only then does the round runner load (rounds.ts, with the rest
 * of the layer, see layer.ts). A 2026-07-28 retry, which carries answers, goes to the round runner
 * from the start. Every server has it (server.ts), since every tool may ask; what it costs a call that
 * asks nothing is one property set.
 */
export function installAsking(dispatcher: Dispatcher): void {
  const handle = ({ method, message, ctx }: Call) => method.run(dispatcher.registry, message.params, ctx);

  /** Runs the handler in the era's way (see rounds.ts), from the round its first run stopped at, when there was one. */
  const resume = (call: Call): Promise<Result> => askingLayer.use((asking) => asking.rounds(call, dispatcher));

  dispatcher.interaction = {
    run(call, chained) {
      const ctx = call.ctx;
      const modern = ctx.era === "modern";
      const params = call.message.params;
      // A 2026-07-28 retry of a round carries its state or answers (2026-07-28 `input_required`).
      if (modern && (params?.requestState !== undefined || params?.inputResponses !== undefined)) return resume(call);
      // A request goes on in rounds when it can: 2026-07-28 always can, a 2025 one when it has a way back.
      if (!modern && call.exchange.ask === undefined) ctx.asking = NO_WAY_BACK_RUN;
      else if (!chained) ctx.asking = FIRST_RUN;
      else {
        // Within a middleware chain, a first run that stops at a question goes on in the era's rounds
        // right here, so middleware runs once per request whatever the rounds (2025 questions are asked
        // within the request; each 2026-07-28 round is a request of its own).
        return new Promise<Result>((resolve, reject) => {
          ctx.asking = { answers: NO_ANSWERS, stuck: () => resolve(resume(call)) };
          const result = handle(call);
          if (result instanceof Promise) result.then(resolve, reject);
          else resolve(result);
        });
      }
      return handle(call);
    },
    resume,
  };
}
