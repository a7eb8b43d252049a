import type { Asker } from "../asking/carried.js";
import type { GateSettings } from "../core/caller.js";
import type { RequestContext, RequestInit, Via } from "../core/context.js";

type ContextClass = typeof RequestContext;

/** Each request of a server with task tools, as the dispatcher made it, with its exchange's asker if it has one (a 2025 session's connection). */
const requests = new WeakMap<object, { readonly ctx: RequestContext; readonly ask: Asker | undefined }>();
const keeping = new WeakMap<ContextClass, ContextClass>();

/**
 * The server's request context class, keeping each request's way to ask its client: a 2025-11-25
 * task's questions go to the client through the `tasks/result` request waiting for it (2025-11-25
 * "Tasks": related requests travel on that stream), and the core hands that way only to the
 * dispatcher's rounds. Installed by the tasks layer only, so servers without task tools pay nothing.
 */
export function keepingRequests(Base: ContextClass): ContextClass {
  let Keeping = keeping.get(Base);
  if (!Keeping) {
    Keeping = class extends Base {
      constructor(init: RequestInit, via?: Via & { readonly ask?: Asker | undefined }, settings?: GateSettings) {
        super(init, via, settings);
        requests.set(this, { ctx: this, ask: via?.ask });
      }
    };
    keeping.set(Base, Keeping);
    keeping.set(Keeping, Keeping);
  }
  return Keeping;
}

/** The request context behind a handler's `ctx` (its stream, its session, which `Context` does not show); undefined for another's. */
export function requestOf(ctx: object): RequestContext | undefined {
  return requests.get(ctx)?.ctx;
}

/** How the request `ctx` can ask its client (see keepingRequests); undefined where there is no way back. */
export function askerOf(ctx: object): Asker | undefined {
  return requests.get(ctx)?.ask;
}

/** What a task's run context does with `ctx.progress` of a 2026-07-28 task: its message becomes the task's statusMessage. */
export type StatusNote = (message: string) => void;

/** What a task's run context is made of: the server's context init, its way back, its gate settings, and the 2026-07-28 status note. */
export interface RunParts {
  readonly init: RequestInit;
  readonly via: Via;
  readonly settings: GateSettings | undefined;
  readonly note?: StatusNote | undefined;
}

const running = new WeakMap<ContextClass, new (parts: RunParts) => RequestContext>();

/**
 * The context of a task's run, of the server's class (plug-ins' additions included). In 2026-07-28
 * the request a progress notification would belong to is over, and no notification of a request may
 * go on a listen stream (§4), so a progress message becomes the task's `statusMessage` instead
 * (SEP-2663 "Tasks": it may describe progress), seen by `tasks/get` and `notifications/tasks`. In
 * 2025-11-25 the progress token stays valid until the task ends ("Tasks"): progress goes to the
 * client as for any request (no `note`), the way `via` gives.
 */
export function runContext(Base: ContextClass, parts: RunParts): RequestContext {
  let Run = running.get(Base);
  if (!Run) {
    Run = class extends Base {
      readonly #note: StatusNote | undefined;
      constructor(parts: RunParts) {
        super(parts.init, parts.via, parts.settings);
        this.#note = parts.note;
      }

      override progress(progress: number, total?: number, message?: string): void {
        if (!this.#note) super.progress(progress, total, message);
        else if (message !== undefined && !this.cancelled) this.#note(message);
      }
    };
    running.set(Base, Run);
  }
  return new Run(parts);
}
