/**
 * `--timeout` of `picomcp call` and `picomcp list`: a server that never answers (its handlers
 * without a deadline, `handlerTimeoutMs: Infinity`, and timers that keep the process alive) is given
 * up on after the bound, the request cancelled on the server, and the command exits 1 naming what
 * got no answer and what to do. Was: no bound, so the command waited until Ctrl+C.
 */
import { describe, expect, it } from "vitest";
import { picomcp } from "./helpers.js";

const SERVER = "test/fixtures/cli-unanswered.ts";
const ADVICE = "If it needs longer, raise --timeout (such as --timeout 2000)";

describe("picomcp call --timeout", () => {
  it("gives up on a tool that does not answer, cancels it on the server, and exits 1 saying what to do", () => {
    const { code, stdout, stderr } = picomcp(["call", SERVER, "wait", "--timeout", "500"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(
      'picomcp call: the tool "wait" did not answer within 500 ms (--timeout), so picomcp cancelled the request.',
    );
    expect(stderr).toContain(ADVICE);
    expect(stderr).toContain("check the server");
    // The tool's ctx.signal aborted: 2025-11-25 notifications/cancelled reached the server.
    expect(stderr).toContain("the wait was cancelled: picomcp waited 500 ms for the answer");
  });

  it("waits --timeout for a tool that ends only through its signal, cancels it, and says so (not a promise nothing can settle)", () => {
    // Was: the event loop emptied once the tool ran (the bound keeps nothing alive on its own), and
    // call said at once "the server's code awaits a promise that nothing can settle any more", exit 1,
    // though its cancellation would have settled it, and the tool was never cancelled.
    const { code, stdout, stderr } = picomcp(["call", "test/fixtures/cli-signal-only.ts", "watch", "--timeout", "500"]);
    expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
    expect(stderr).toBe(
      "picomcp call: the request waits on nothing the process can still deliver (no timer, socket or request of " +
        "the server's own is left), so only its cancellation can end it: picomcp cancels it when --timeout has " +
        "passed; Ctrl+C stops now. A handler that waits for its ctx.signal ends then; one that awaits a promise " +
        "whose resolve is never called does not.\n" +
        "the watch was cancelled: picomcp waited 500 ms for the answer\n" +
        'picomcp call: the tool "watch" did not answer within 500 ms (--timeout), so picomcp cancelled the request. ' +
        "If it needs longer, raise --timeout (such as --timeout 2000); if it should have answered by now, check the " +
        "server: a handler, or a middleware before it, waits on something that does not come " +
        "(limits.handlerTimeoutMs bounds that on the server's side, unless it is Infinity).\n",
    );
  });

  it("says of a tool still reporting progress when --timeout passed that it was at work and needs longer", () => {
    // Was: "if it should have answered by now, check the server: a handler … waits on something that
    // does not come", of a tool whose progress bar was moving on the screen.
    const { code, stderr } = picomcp(["call", SERVER, "crawl", "--timeout", "500"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        'picomcp call: the tool "crawl" did not answer within 500 ms \\(--timeout\\), so picomcp cancelled the ' +
          'request\\. It was still at work, its last progress report \\(\\d+ "page \\d+"\\) \\d+ ms before: if it ' +
          "needs longer, raise --timeout \\(such as --timeout 2000\\)\\.\n$",
      ),
    );
    expect(stderr).not.toContain("check the server");
  });

  it("names tools/list when that is what does not answer, as --arg reads the tool's schema first", () => {
    const { code, stderr } = picomcp(["call", SERVER, "quick", "--arg", "x=1", "--timeout", "500"], {
      env: { CLI_UNANSWERED_LIST: "1" },
    });
    expect(code).toBe(1);
    expect(stderr).toContain("picomcp call: the server's tools/list did not answer within 500 ms (--timeout)");
    expect(stderr).toContain(ADVICE);
  });

  it("leaves an answer that comes within the bound alone", () => {
    expect(picomcp(["call", SERVER, "quick", "--timeout", "20000"])).toMatchObject({
      code: 0,
      stdout: "quick answer\n",
    });
  });

  it("refuses a --timeout that is not a number of milliseconds, exit 2", () => {
    for (const value of ["0", "soon", "-5", "1.5"]) {
      const { code, stderr } = picomcp(["call", SERVER, "quick", "--timeout", value]);
      expect(code).toBe(2);
      expect(stderr).toContain(`picomcp call: --timeout ${value}: give the milliseconds to wait for the server`);
    }
  });

  it("says what --timeout does and its default in --help", () => {
    const { code, stdout } = picomcp(["call", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("--timeout  the milliseconds to wait for each answer of the server (default 60000)");
  });
});

describe("picomcp list --timeout", () => {
  it("gives up on a list that does not answer and exits 1 naming it", () => {
    const { code, stdout, stderr } = picomcp(["list", SERVER, "--timeout", "500"], {
      env: { CLI_UNANSWERED_LIST: "1" },
    });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("picomcp list: the server's tools/list did not answer within 500 ms (--timeout)");
    expect(stderr).toContain(ADVICE);
  });

  it("says what --timeout does and its default in --help", () => {
    expect(picomcp(["list", "--help"]).stdout).toContain(
      "--timeout  the milliseconds to wait for each answer of the server (default 60000)",
    );
  });
});
