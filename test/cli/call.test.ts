/** `picomcp call`: one tool call through the fixture's whole pipeline, as a child process. */
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { HOSTILE } from "../fixtures/cli-escapes.js";
import { BIN, collect, exitOf, FIXTURE, picomcp, ROOT } from "./helpers.js";

const call = (...args: string[]) => picomcp(["call", FIXTURE, ...args]);

/**
 * util-linux `script`'s arguments that run `picomcp call <file> <tool>` with a terminal (a pty) for
 * its stdin, forwarding what is piped to it.
 */
function onTerminal(file: string, tool: string): string[] {
  return ["-qec", [process.execPath, "--import", "tsx", BIN, "call", file, tool].join(" "), "/dev/null"];
}

/** `picomcp call <file> <tool>` on a terminal, with `input` typed into it; once it has exited. */
const typedOnTerminal = (file: string, tool: string, input: string) =>
  spawnSync("script", onTerminal(file, tool), { cwd: ROOT, encoding: "utf8", input, timeout: 30_000 });

describe("picomcp call", () => {
  it("takes --arg pairs typed by the input schema, and prints the text", () => {
    expect(call("greet", "--arg", "name=42", "--arg", "times=2")).toMatchObject({
      code: 0,
      stdout: "Hello, 42! Hello, 42!\n",
    });
  });

  it("keeps an --arg value a string where the schema allows a string among other types (nullable)", () => {
    expect(call("greet", "--arg", "name=Ada", "--arg", "from=123")).toMatchObject({
      code: 0,
      stdout: "Hello, Ada! (from 123)\n",
    });
  });

  it("says on stderr which arguments the tool's input schema does not list, without saying what becomes of them", () => {
    // Was: "… it is likely dropped by its schema", of a schema that allows other keys (no
    // additionalProperties: JSON Schema takes them, and a library may keep them). Before that, nothing
    // was said, and zod dropped it, so `--arg time=2` greeted once, its default.
    const said =
      'picomcp call: the tool "greet" does not list time in its input schema (its arguments: name, times, from); ' +
      "it is sent as given: check the spelling if you meant one of those.\n";
    expect(call("greet", "--arg", "name=Ada", "--arg", "time=2")).toEqual({
      code: 0,
      stdout: "Hello, Ada!\n",
      stderr: said,
    });
    expect(call("greet", '{"name":"Ada","time":2}')).toEqual({ code: 0, stdout: "Hello, Ada!\n", stderr: said });
    expect(call("greet", "--arg", "name=Ada", "--arg", "times=2")).toMatchObject({ code: 0, stderr: "" });
  });

  it("takes a JSON object, and pretty-prints structured content once", () => {
    const { code, stdout } = call("measure", '{"word":"pico"}');
    expect(code).toBe(0);
    expect(stdout).toBe(`${JSON.stringify({ length: 4, letters: ["c", "i", "o", "p"] }, null, 2)}\n`);
  });

  it("names the helpers' other blocks, an image's and an audio clip's size in the bytes they decode to", () => {
    expect(picomcp(["call", "test/fixtures/cli-content.ts", "quarterly_report"])).toEqual({
      code: 0,
      stdout:
        "Sales rose 12% over Q2.\n" +
        "[image image/png, 4 bytes]\n" +
        "[image image/png, 4 bytes]\n" +
        '[link file:///reports/q3.csv "q3.csv"]\n' +
        "[resource file:///reports/q3-notes.md]\n# Notes\n" +
        "[audio audio/wav, 6 bytes]\n",
      stderr: "",
    });
  });

  it("--json prints the tools/call result as the client receives it", () => {
    const { code, stdout } = call("measure", '{"word":"ab"}', "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      content: [{ type: "text", text: '{"length":2,"letters":["a","b"]}' }],
      structuredContent: { length: 2, letters: ["a", "b"] },
    });
  });

  it("draws the tool's progress as a bar on stderr", () => {
    const { code, stdout, stderr } = call("count", "--arg", "to=2");
    expect(code).toBe(0);
    expect(stdout).toBe("Counted to 2\n");
    expect(stderr).toBe("[##########----------] 50% 1/2 step 1\n[####################] 100% 2/2 step 2\n");
  });

  it("declines an elicitation when stdin is not a terminal, and says so", () => {
    const { code, stdout, stderr } = call("ask_color");
    expect(code).toBe(0);
    expect(stdout).toBe("No color: decline\n");
    expect(stderr).toContain('the tool asked "Your favourite color?", but stdin is not a terminal');
  });

  it.runIf(process.platform === "linux")("asks an elicitation's form on the terminal when stdin is one", () => {
    const child = typedOnTerminal(FIXTURE, "ask_color", "y\nteal\n");
    expect(child.status).toBe(0);
    expect(child.stdout).toContain("The tool asks: Your favourite color?");
    expect(child.stdout).toContain("color [string]: ");
    expect(child.stdout).toMatch(/You like teal\r?\n$/);
  });

  it.runIf(process.platform === "linux")("asks again for a field typed wrong, saying what to type", () => {
    // Was: `"abc" is not a integer.`, `"maybe" is not a boolean.`: the type's name, not what to type.
    const child = typedOnTerminal("test/fixtures/cli-form.ts", "order", "y\nabc\n3\nbig\n2.5\nmaybe\ny\n");
    expect(child.status).toBe(0);
    expect(child.stdout).toContain('"abc" is not a whole number: type one, such as 3.');
    expect(child.stdout).toContain('"big" is not a number: type one, such as 2.5.');
    expect(child.stdout).toContain('"maybe" is not yes or no: type y or n.');
    expect(child.stdout).toMatch(/\{"count":3,"size":2\.5,"wrap":true\}\r?\n$/);
  });

  it.runIf(process.platform === "linux")(
    "stops at Ctrl+C typed while the form is asked, as anywhere else",
    async () => {
      // Was: "The terminal's input ended: cancelled.", then the tool went on with a cancel, exit 0.
      const child = spawn("script", onTerminal(FIXTURE, "ask_color"), {
        cwd: ROOT,
        stdio: ["pipe", "pipe", "inherit"],
      });
      const output = collect(child.stdout);
      for (const deadline = Date.now() + 20_000; !output.text.includes("[c]ancel: "); ) {
        if (Date.now() > deadline) throw new Error(`no question within 20 s; saw:\n${output.text}`);
        await new Promise((done) => setTimeout(done, 50));
      }
      // Raw mode is on once the question is drawn: Ctrl+C reaches picomcp as a character, not a signal.
      child.stdin.write("\x03");
      expect(await exitOf(child)).toBe(130);
      expect(output.text).not.toContain("No color");
      expect(output.text).not.toContain("input ended");
    },
  );

  it("exits 1 with the tool error's text on stderr, and with the JSON-RPC error of an unknown tool", () => {
    expect(call("fail")).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "Tool error: This tool always fails: there is nothing to retry.\n",
    });
    expect(call("greet", '{"times":9}')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Tool error: Invalid arguments for tool "greet":\n(.+\n)*times: Too big/),
    });
    // --help files them as it happens: invalid arguments are a tool error, not a JSON-RPC one.
    expect(picomcp(["call", "--help"]).stdout).toContain(
      "1 it answered with a tool error (isError: invalid arguments, an\nerror its run threw), the call failed (a JSON-RPC error: an unknown tool)",
    );
    // An unknown name ends with the names there are, on the same line (was: only the server's
    // "Call tools/list", which is no command of the shell).
    expect(call("nope")).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /^picomcp call: the server answered with JSON-RPC error -32602: Unknown tool "nope".*\. The server's tools: greet, measure, count, ask_color, fail \(picomcp list test\/fixtures\/cli-server\.ts describes them\)\.\n$/,
      ),
    });
  });

  it("ends an unknown tool's error with the names nearest to it when the server has hundreds", () => {
    // Was: all 300 names, some 4,500 characters on one line.
    const many = "test/fixtures/cli-many-tools.ts";
    const nearest = [2, 4, 12, 22, 32, 40, 41, 43, 44].map((index) => `get_record_${index}`).join(", ");
    expect(picomcp(["call", many, "get_recrod_42"])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        new RegExp(
          `^picomcp call: the server answered with JSON-RPC error -32602: Unknown tool "get_recrod_42"\\..*\\. ` +
            `The server has 300 tools; the nearest to "get_recrod_42": get_record_42, ${nearest} ` +
            `\\(picomcp list ${many.replaceAll(".", "\\.")} lists them all\\)\\.\n$`,
        ),
      ),
    });
  });

  it("exits 2 without a tool, saying where to find the names", () => {
    expect(picomcp(["call", FIXTURE])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        new RegExp(
          `^picomcp call: which tool\\? Give its name after the file \\(picomcp list ${FIXTURE} shows them\\)\n`,
        ),
      ),
    });
  });

  it("exits 2 on arguments that are not a JSON object", () => {
    expect(call("greet", "{name:1}")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("picomcp call: the arguments are not JSON"),
    });
    expect(call("greet", "[1]")).toMatchObject({ code: 2, stderr: expect.stringContaining("must be a JSON object") });
  });

  it("exits 2 on an --arg or JSON number JSON cannot carry, instead of calling with null in its place", () => {
    for (const value of ["1e999", "-1e999"]) {
      expect(call("greet", "--arg", "name=Ada", "--arg", `times=${value}`)).toMatchObject({
        code: 2,
        stdout: "",
        stderr: expect.stringMatching(
          new RegExp(
            `^picomcp call: --arg times=${value}: the number is beyond what JSON carries \\(about ±1\\.8e308\\), ` +
              "and would be sent as null: give a smaller one\n\nUsage: ",
          ),
        ),
      });
    }
    expect(call("greet", '{"name":"Ada","times":1e999}')).toMatchObject({
      code: 2,
      stdout: "",
      stderr: expect.stringMatching(/^picomcp call: the arguments: the number is beyond what JSON carries /),
    });
  });

  it("exits 2 on name=value arguments given without --arg, saying the --arg to write", () => {
    // Was: 'the arguments are not JSON (Unexpected token …)', and 'unexpected argument "times=2"'.
    for (const words of [["name=Ada"], ["name=Ada", "times=2"]]) {
      expect(call("greet", ...words)).toMatchObject({
        code: 2,
        stdout: "",
        stderr: expect.stringMatching(
          new RegExp(
            `^picomcp call: give each argument with --arg: ${words.map((word) => `--arg ${word}`).join(" ")}\n\nUsage: `,
          ),
        ),
      });
    }
  });

  it("exits 2 on an --arg without = or given twice, instead of calling with one of the values", () => {
    expect(call("greet", "--arg", "name")).toMatchObject({
      code: 2,
      stdout: "",
      stderr: expect.stringMatching(/^picomcp call: --arg name: write it as name=value\n\nUsage: /),
    });
    // The value given apart, after a space: the --arg is said, not the value taken for JSON (was:
    // "give a JSON object or --arg, not both").
    expect(call("greet", "--arg", "name", "Ada")).toMatchObject({
      code: 2,
      stdout: "",
      stderr: expect.stringMatching(
        /^picomcp call: --arg name: write it as name=value, such as --arg name=Ada\n\nUsage: /,
      ),
    });
    expect(call("greet", "--arg", "name=Ada", "--arg", "name=Bob")).toMatchObject({
      code: 2,
      stdout: "",
      stderr: expect.stringMatching(
        /^picomcp call: --arg name is given twice: give each argument once \(a list as JSON: --arg name='\["a","b"\]'\)\n\nUsage: /,
      ),
    });
  });
});

describe("picomcp call with argument names that are also Object.prototype's", () => {
  const RAW = "test/fixtures/cli-raw-arguments.ts";
  /** What the server's middleware says it received: own entries in order, and the object's prototype. */
  const received = (...args: string[]) => {
    const { code, stdout, stderr } = picomcp(["call", RAW, "echo", ...args]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    return JSON.parse(stdout) as { entries: [string, unknown][]; prototype: string };
  };

  it("sends --arg __proto__, constructor and prototype as arguments, as typed", () => {
    // Was: `__proto__` set the prototype of the arguments object (or, for a string, nothing), and was
    // not sent: the server received { constructor, prototype, a } only.
    expect(
      received(
        "--arg",
        '__proto__={"polluted":true}',
        "--arg",
        "constructor=42",
        "--arg",
        "prototype=x",
        "--arg",
        "a=1",
      ),
    ).toEqual({
      entries: [
        ["__proto__", { polluted: true }],
        // The schema takes a string for "constructor": 42 stays the text typed.
        ["constructor", "42"],
        ["prototype", "x"],
        ["a", 1],
      ],
      prototype: "Object.prototype",
    });
    expect(received("--arg", "__proto__=plain")).toEqual({
      entries: [["__proto__", "plain"]],
      prototype: "Object.prototype",
    });
  });

  it("warns of an argument a schema that takes no others (additionalProperties: false) does not name", () => {
    const { code, stderr } = picomcp(["call", RAW, "closed", "--arg", "nmae=Ada"]);
    expect(stderr).toMatch(
      /^picomcp call: the tool "closed" has no argument nmae \(its arguments: name\), and its input schema takes no others: check the spelling\.\n/,
    );
    // The server refuses it, as the warning said.
    expect(code).toBe(1);
  });

  it("refuses --arg __proto__ given twice, as any other name", () => {
    const { code, stderr } = picomcp(["call", RAW, "echo", "--arg", "__proto__=1", "--arg", "__proto__=2"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^picomcp call: --arg __proto__ is given twice: give each argument once/);
  });

  it("sends them from a JSON object too", () => {
    expect(received('{"__proto__":{"polluted":true},"constructor":"c","prototype":"p"}')).toEqual({
      entries: [
        ["__proto__", { polluted: true }],
        ["constructor", "c"],
        ["prototype", "p"],
      ],
      prototype: "Object.prototype",
    });
  });
});

describe("picomcp call, list and check with a module that writes to stdout", () => {
  const NOISY = "test/fixtures/cli-noisy.ts";

  it.each([
    ["call", "shout", "--json"],
    ["list", "--json"],
    ["check", "--json"],
  ])("%s %s: stdout is the JSON alone, the module's output goes to stderr", (verb, ...rest) => {
    const { code, stdout, stderr } = picomcp([verb, NOISY, ...rest]);
    expect(code).toBe(0);
    expect(() => JSON.parse(stdout)).not.toThrow();
    expect(stderr).toContain("noisy: loaded");
  });

  it("prints the result alone on stdout, and what the tool logged on stderr", () => {
    const { code, stdout, stderr } = picomcp(["call", NOISY, "shout"]);
    expect(code).toBe(0);
    expect(stdout).toBe("HELLO\n");
    expect(stderr).toBe("noisy: loaded\nnoisy: running\n{ step: 1 }\nnoisy: raw write\n");
  });
});

describe("picomcp call with a server whose text holds terminal control sequences", () => {
  const ESCAPES = "test/fixtures/cli-escapes.ts";
  // What the user sees instead: each control character written out, the line breaks kept.
  const SHOWN = "safe\\u001b[2J\\u001b]0;owned\\u0007 text\\u000dover\\u202egnp.exe\nnext line";

  it("writes them out as text on stdout and stderr instead of passing them to the terminal", () => {
    expect(picomcp(["call", ESCAPES, "paint"])).toEqual({ code: 0, stdout: `${SHOWN}\n`, stderr: "" });
    expect(picomcp(["call", ESCAPES, "smear"])).toEqual({ code: 1, stdout: "", stderr: `Tool error: ${SHOWN}\n` });
    const lured = picomcp(["call", ESCAPES, "lure"]);
    expect(lured).toMatchObject({ code: 0, stdout: "decline\n" });
    expect(lured.stderr).toBe(
      `[##########----------] 50% 1/2 ${SHOWN}\n` +
        `picomcp call: the tool asked "${SHOWN}", but stdin is not a terminal, so nobody can answer: declined.\n`,
    );
  });

  it("list and check write out those of the server's instructions and descriptions", () => {
    for (const verb of ["list", "check"]) {
      const { stdout } = picomcp([verb, ESCAPES]);
      expect(stdout).toContain(`: ${SHOWN}`);
      for (const character of ["\u001b", "\u0007", "\u202e"]) expect(stdout).not.toContain(character);
    }
  });

  it("--json keeps the result as the client received it", () => {
    const { code, stdout } = picomcp(["call", ESCAPES, "paint", "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).content[0].text).toBe(HOSTILE);
  });
});
