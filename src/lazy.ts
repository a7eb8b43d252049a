/**
 * Code a server loads on first use, not at start-up: a tools-only server never loads the runtime of
 * resources, prompts, completions and listen, of asking the client, or of auth checks. Registration
 * errors stay eager: what `.resource()`, `.prompt()` and `auth` rules validate lives in the static
 * modules. Each module is imported once and kept, so after the first use it is called synchronously
 * (`now`), without a tick of its own on the request's path.
 */
export class Lazy<T> {
  /** The module, once loaded. */
  now: T | undefined;
  readonly #import: () => Promise<T>;
  #loading: Promise<T> | undefined;

  constructor(load: () => Promise<T>) {
    this.#import = load;
  }

  load(): Promise<T> {
    this.#loading ??= this.#import().then((module) => (this.now = module));
    return this.#loading;
  }

  /** Calls `use` with the module: at once when it is loaded, after loading it otherwise. */
  use<R>(use: (module: T) => R): R | Promise<Awaited<R>> {
    const module = this.now;
    return module ? use(module) : (this.load().then(use) as Promise<Awaited<R>>);
  }
}

/**
 * Asking the client (elicitation, sampling, roots), the rounds of a handler that asked, and a legacy
 * connection's questions awaiting answers: one module, since a server that asks uses them together.
 */
export const askingModule = new Lazy(() => import("./asking.js"));
/** Resources, prompts, completions and `subscriptions/listen` at run time. */
export const featuresModule = new Lazy(() => import("./features.js"));
/** Checking callers against `auth` rules, and refusing them. */
export const enforceModule = new Lazy(() => import("./auth/enforce.js"));
