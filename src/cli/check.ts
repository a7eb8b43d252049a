/** `picomcp check <file> [export]`: the tool-plan linter of picomcp/testing, from a shell. */
import { lint } from "../testing.js";
import { parseArgs, UsageError } from "./args.js";
import { loadServer } from "./load.js";
import { printable } from "./printable.js";
import { EXIT, print, printJson, type Verb } from "./verb.js";

export const check: Verb = {
  name: "check",
  summary: "lint the tool plan: each tool's contract as a checklist, then the findings",
  help: `Usage: picomcp check <server file> [export] [--strict] [--json]

Lints the tool plan of the server the file exports (its default export, the named one, or the
first export that is a server) against the tool-design guide, and prints each tool's contract as
a Markdown checklist, then the findings.

Options:
  --strict  exit 1 on warnings too
  --json    print the findings as JSON

Exit codes: 0 no errors, 1 errors (or warnings with --strict), 2 the module or server cannot be loaded.
`,
  async run(argv) {
    const args = parseArgs(argv, { switches: ["strict"] });
    const [file, name, extra] = args.positionals;
    if (!file || extra) throw new UsageError(file ? `unexpected argument "${extra}"` : "which server file?");
    const { server } = await loadServer(file, { name, command: "picomcp check" });
    const report = await lint(server);
    if (args.switches.has("json")) printJson(report.findings);
    // The checklist quotes the server's descriptions: their control characters are written out, not run.
    else print(printable(String(report)));
    return report.errors > 0 || (args.switches.has("strict") && report.warnings > 0) ? EXIT.failed : EXIT.ok;
  },
};
