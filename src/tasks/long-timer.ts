/** setTimeout's longest delay, 2^31 − 1 ms (about 24.8 days): a longer one overflows and fires at once. */
const LONGEST_DELAY_MS = 2 ** 31 - 1;

/** A wait `after` started, which `cancel` ends before `done` is called. */
interface Expiry {
  timer: ReturnType<typeof setTimeout> | undefined;
  cancel(): void;
}

/** Calls `done` once `ms` have passed, however long (a TTL of weeks waits in steps setTimeout can take). */
export function after(ms: number, done: () => void): Expiry {
  const expiry: Expiry = {
    timer: undefined,
    cancel: () => clearTimeout(expiry.timer),
  };
  const wait = (left: number) => {
    const step = Math.min(left, LONGEST_DELAY_MS);
    expiry.timer = setTimeout(() => (left > step ? wait(left - step) : done()), step);
    // A task's expiry never keeps the process alive (Deno's timer is a number, without unref).
    expiry.timer.unref?.();
  };
  wait(ms);
  return expiry;
}
