/**
 * What the core carries for a layer without naming the layer's types (issue 14: layers "add to the
 * request context"): each layer declares its slot by augmenting this interface, as the layers'
 * registrations are declared (registry.ts's `Registrations`), so that the core holds it, typed as
 * precisely as the layer's own code, while it imports nothing of the layer: `limits`
 * (limits/options.ts), `inProgress` (limits/interruptions.ts), `session` and `peer`
 * (sessions/peer.ts), `asking`, `round` and `asker` (asking/carried.ts). A slot is for what the core only carries (it reads one limit,
 * `maxUsedRequestStates`); what it calls of a layer it declares itself, as an interface its `Layer`
 * holds (below). A public type never goes through a slot: the published declarations keep an
 * augmentation under its source path, where it resolves to nothing, so `ctx.auth`'s `Identity`, a
 * tool's `Access` and the `Context` stay the core's own.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the layers' declaration merging.
export interface Carried {}

/** The type a layer declared for `slot` in `Carried`; `never` where none did. */
export type CarriedAs<Slot extends string> = Slot extends keyof Carried ? Carried[Slot] : never;

/**
 * A layer the request-scoped core hands work to without importing it (issue 14: the core imports
 * nothing above it, not even dynamically). The core module that calls a layer declares what it
 * calls and holds its `Layer`; the server, above the core, wires in the module (src/server.ts),
 * which is imported when a program first uses it: a tools-only server never loads asking the client,
 * the run time of resources and prompts, or the caller checks of `auth` rules.
 */
export class Layer<T> {
  /** The module, once loaded: later uses call it synchronously, without a tick on the request's path. */
  now: T | undefined;
  #import: (() => Promise<T>) | undefined;
  #loading: Promise<T> | undefined;

  /** Says where the layer's module comes from; the first wiring stays. */
  wire(load: () => Promise<T>): void {
    this.#import ??= load;
  }

  load(): Promise<T> {
    // Unwired only when the core runs without the server that wires it (server.ts).
    this.#loading ??= this.#import!().then((module) => (this.now = module));
    return this.#loading;
  }

  /** Calls `use` with the module: at once when it is loaded, after loading it otherwise. */
  use<R>(use: (module: T) => R): R | Promise<Awaited<R>> {
    const module = this.now;
    // `then` cannot infer Awaited<R> for a generic R: what it resolves with is exactly that.
    return module ? use(module) : (this.load().then(use) as Promise<Awaited<R>>);
  }
}
