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
