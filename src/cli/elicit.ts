/**
 * Answers a tool's elicitation from the terminal (2025-11-25 "Elicitation"): a form's fields asked
 * one by one, each parsed by its JSON Schema type (string, number, integer, boolean, enum) and
 * asked again when it does not parse; a URL shown for the user to open. Without a terminal on
 * stdin nobody can answer, so the request is declined and stderr says why.
 */
import { createInterface } from "node:readline/promises";
import { printable } from "./printable.js";

type Schema = {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: { const: unknown; title?: string }[];
  default?: unknown;
};

const TRIES = 3;

export async function answerElicitation(params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const message = printable(String(params.message ?? ""));
  if (!process.stdin.isTTY) {
    process.stderr.write(
      `picomcp call: the tool asked "${message}", but stdin is not a terminal, so nobody can answer: declined.\n`,
    );
    return { action: "decline" };
  }
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  // Ctrl+C at a question stops the command, as it does anywhere else in it: readline holds the
  // terminal in raw mode, where it comes as this event instead of the signal, and would end the form.
  terminal.on("SIGINT", () => {
    terminal.close();
    process.stderr.write("\n");
    process.kill(process.pid, "SIGINT");
  });
  // Lines typed before their question is asked wait in the iterator instead of being lost.
  const lines = terminal[Symbol.asyncIterator]();
  const ask: Ask = async (label) => {
    terminal.setPrompt(label);
    terminal.prompt();
    const next = await lines.next();
    if (next.done) throw new EndOfInput();
    return String(next.value).trim();
  };
  try {
    process.stderr.write(`\nThe tool asks: ${message}\n`);
    if (params.mode === "url") {
      process.stderr.write(`Open ${printable(String(params.url))}\n`);
      const go = await ask("Did you open it and finish there? [y/N] ");
      return { action: /^y/i.test(go) ? "accept" : "decline" };
    }
    const requested = (params.requestedSchema ?? {}) as { properties?: Record<string, Schema>; required?: string[] };
    const go = await ask("Answer? [Y]es, [n]o (decline), [c]ancel: ");
    if (/^n/i.test(go)) return { action: "decline" };
    if (/^c/i.test(go)) return { action: "cancel" };
    const content: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(requested.properties ?? {})) {
      const required = requested.required?.includes(name) ?? false;
      const value = await askField(ask, { name, schema, required });
      if (value !== undefined) content[name] = value;
    }
    return { action: "accept", content };
  } catch (error) {
    if (!(error instanceof EndOfInput)) throw error;
    process.stderr.write("\nThe terminal's input ended: cancelled.\n");
    return { action: "cancel" };
  } finally {
    terminal.close();
  }
}

type Ask = (label: string) => Promise<string>;

/** The terminal's input ended (Ctrl+D) before the form did. */
class EndOfInput extends Error {}

/** One field of a form: its name, its JSON Schema, and whether the form requires it. */
interface Field {
  readonly name: string;
  readonly schema: Schema;
  readonly required: boolean;
}

async function askField(ask: Ask, { name, schema, required }: Field): Promise<unknown> {
  const choices = schema.enum ?? schema.oneOf?.map((option) => option.const);
  const hints = [
    schema.type ?? "string",
    choices ? `one of ${choices.join(", ")}` : "",
    schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : "",
    required ? "" : "optional",
  ].filter(Boolean);
  const label = printable(
    `${schema.title ?? name}${schema.description ? ` (${schema.description})` : ""} [${hints.join("; ")}]: `,
  );
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const line = await ask(label);
    if (line === "") {
      if (schema.default !== undefined) return schema.default;
      if (!required) return undefined;
      process.stderr.write(`${printable(name)} is required.\n`);
      continue;
    }
    const value = parseField(line, schema.type);
    if (value === undefined) process.stderr.write(`"${line}" is not ${TO_TYPE[schema.type ?? ""] ?? "valid"}.\n`);
    else if (choices && !choices.includes(value))
      process.stderr.write(`Choose one of ${printable(choices.join(", "))}.\n`);
    else return value;
  }
  throw { code: -32603, message: `no valid answer for ${name} after ${TRIES} tries` };
}

/** What a line that parseField refuses is not, and what to type instead, by the field's JSON Schema type. */
const TO_TYPE: Record<string, string> = {
  integer: "a whole number: type one, such as 3",
  number: "a number: type one, such as 2.5",
  boolean: "yes or no: type y or n",
};

function parseField(line: string, type: string | undefined): unknown {
  if (type === "number" || type === "integer") {
    const number = Number(line);
    return Number.isFinite(number) && (type === "number" || Number.isInteger(number)) ? number : undefined;
  }
  if (type === "boolean") {
    if (/^(y|yes|true)$/i.test(line)) return true;
    if (/^(n|no|false)$/i.test(line)) return false;
    return undefined;
  }
  return line;
}
