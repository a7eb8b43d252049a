/** `picomcp list <file>`: the tools, resources, templates and prompts a client receives, and what tools/list costs. */
import { flagValue, parseArgs, UsageError } from "./args.js";
import { DEFAULT_TIMEOUT_MS, noAnswer, TimedOut, timeoutOf } from "./deadline.js";
import { estimateTokens, inspect } from "./inspect.js";
import { loadServer } from "./load.js";
import { printable } from "./printable.js";
import { EXIT, print, printJson, type Verb } from "./verb.js";

const ESTIMATE =
  "estimate: characters of the compact JSON / 4; a model's tokenizer may count some tens of per cent differently";

export const list: Verb = {
  name: "list",
  summary: "show the tools, resources, templates and prompts a client receives, and what tools/list costs",
  help: `Usage: picomcp list <server file> [export] [--json] [--token <bearer token>] [--timeout <ms>]

Loads the server the file exports and asks it, through its own Streamable HTTP handling (in a
2025-11-25 session, in-process, no port), for every page of tools/list, resources/list,
resources/templates/list and prompts/list: what a client receives, byte for byte. Then estimates
the tokens the tools/list answer costs the model on every turn it is in the context
(${ESTIMATE}).

Options:
  --json     print the lists as JSON: { server, protocolVersion, tools, resources, resourceTemplates,
             prompts, toolsListTokens }
  --token    a bearer token, for a server with auth
  --timeout  the milliseconds to wait for each answer of the server (default ${DEFAULT_TIMEOUT_MS}); past it
             picomcp exits 1

Exit codes: 0 listed, 1 the server answered a list with an error or did not answer within --timeout,
2 the module or server cannot be loaded.
`,
  async run(argv) {
    const args = parseArgs(argv, { values: ["token", "timeout"] });
    const [file, name, extra] = args.positionals;
    if (!file || extra) throw new UsageError(file ? `unexpected argument "${extra}"` : "which server file?");
    const timeoutMs = timeoutOf(args);
    const { server } = await loadServer(file, { name, command: "picomcp list" });
    const listing = await inspect(server, { token: flagValue(args, "token"), timeoutMs }).catch((thrown: unknown) => {
      if (!(thrown instanceof TimedOut)) throw thrown;
      throw noAnswer(`the server's ${thrown.method}`, timeoutMs);
    });
    const toolsListTokens = estimateTokens({ tools: listing.tools });
    if (args.switches.has("json")) {
      printJson({ ...listing, toolsListTokens });
      return EXIT.ok;
    }
    const lines = [`${listing.server.name} ${listing.server.version ?? ""} (protocol ${listing.protocolVersion})`];
    if (listing.instructions) lines.push("", `Instructions: ${listing.instructions}`);
    lines.push("", heading("Tools", listing.tools.length));
    for (const tool of listing.tools) {
      lines.push(`  ${tool.name}${tool.title ? ` — ${tool.title}` : ""}  (~${estimateTokens(tool)} tokens)`);
      if (tool.description) lines.push(`    ${tool.description}`);
      lines.push(`    input: ${JSON.stringify(tool.inputSchema)}`);
      if (tool.outputSchema) lines.push(`    output: ${JSON.stringify(tool.outputSchema)}`);
      if (tool.annotations) lines.push(`    annotations: ${JSON.stringify(tool.annotations)}`);
    }
    lines.push("", heading("Resources", listing.resources.length));
    for (const resource of listing.resources) lines.push(`  ${resource.uri}${describe(resource)}`);
    lines.push("", heading("Resource templates", listing.resourceTemplates.length));
    for (const template of listing.resourceTemplates) lines.push(`  ${template.uriTemplate}${describe(template)}`);
    lines.push("", heading("Prompts", listing.prompts.length));
    for (const prompt of listing.prompts) {
      const names = ((prompt.arguments ?? []) as { name: string; required?: boolean }[]).map(
        (argument) => `${argument.name}${argument.required ? "" : "?"}`,
      );
      lines.push(`  ${prompt.name}(${names.join(", ")})${describe(prompt)}`);
    }
    const characters = JSON.stringify({ tools: listing.tools }).length;
    lines.push(
      "",
      `tools/list costs about ${toolsListTokens} tokens per turn (${characters} characters of JSON; ${ESTIMATE}).`,
    );
    // What the server sent, shown to a person: its control characters are written out, not run.
    print(printable(lines.join("\n")));
    return EXIT.ok;
  },
};

function heading(title: string, count: number): string {
  return `${title} (${count})${count === 0 ? ": none" : ""}`;
}

function describe(item: Record<string, unknown>): string {
  const parts = [item.mimeType, item.description].filter((part) => typeof part === "string" && part);
  return parts.length ? ` — ${parts.join(", ")}` : "";
}
