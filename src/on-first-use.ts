import type { Registry } from "./core/registry.js";

/**
 * A part of a server that loads when the program first uses it (what `.resource()`, `.prompt()` and
 * `.use()` need), so a server that never does carries none of it. What is asked of it before it has
 * loaded waits in a queue and is done in order once it has, while `server.ready()`, and every
 * transport before it serves, waits for the registry (`Registry.wait`); a mistake found then rejects
 * them, as a start-up error.
 */
export class OnFirstUse<Part extends object> {
  readonly #registry: Registry;
  readonly #load: () => Promise<Part>;
  #part: Part | undefined;
  #queued: ((part: Part) => void)[] | undefined;

  constructor(registry: Registry, load: () => Promise<Part>) {
    this.#registry = registry;
    this.#load = load;
  }

  /** The part, once it has loaded. */
  get now(): Part | undefined {
    return this.#part;
  }

  /** Does `work` now if the part has loaded (a mistake throws here), else once it has. */
  run(work: (part: Part) => void): void {
    if (this.#part) work(this.#part);
    else if (this.#queued) this.#queued.push(work);
    else {
      const queued = [work];
      this.#queued = queued;
      this.#registry.wait(
        this.#load().then((part) => {
          // Work queued while this runs is in the same array, so it is done here, in order.
          for (const each of queued) each(part);
          this.#part = part;
        }),
      );
    }
  }
}
