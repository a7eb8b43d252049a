/**
 * A plug-in (docs/architecture.md, "Writing a layer or a plug-in"; docs/middleware.md, "Plug-ins"):
 * an extension that adds one request method, `echo/say`, in both protocol eras, and advertises itself
 * in `capabilities.extensions`, which clients read from the `initialize` result (2025-11-25) and from
 * `server/discover` (2026-07-28). `node --import tsx examples/plugin/echo-extension.ts` serves a
 * server with it over stdio.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ErrorCode, McpError, type Plugin, pico } from "picomcp";

/** The extension's key in `capabilities.extensions`: reverse DNS, under a name you own. */
export const ECHO_EXTENSION = "io.example/echo";

export function echoExtension(options: { maxLength?: number } = {}): Plugin {
  const maxLength = options.maxLength ?? 1_000;
  return {
    name: "echo",
    methods: {
      // Served in both eras unless `modern: false` or `legacy: false` says otherwise.
      "echo/say": {
        run: (params, ctx) => {
          const text = params?.text;
          if (typeof text !== "string") {
            throw new McpError(ErrorCode.InvalidParams, "echo/say needs params.text: the text to echo back, a string");
          }
          if (text.length > maxLength) {
            throw new McpError(
              ErrorCode.InvalidParams,
              `echo/say echoes at most ${maxLength} characters; got ${text.length}. Send a shorter text.`,
            );
          }
          return { text, era: ctx.era };
        },
      },
    },
    // What a client learns from the capabilities: that the extension is here, and its limit.
    capabilities: { extensions: { [ECHO_EXTENSION]: { maxLength } } },
  };
}

/** The smallest server with the extension: one tool, so that it is a tool server too. */
export function createEchoServer() {
  return pico({ name: "echo-example", version: "1.0.0" })
    .tool("ping", { description: "Answers pong.", run: () => "pong" })
    .use(echoExtension({ maxLength: 100 }));
}

// Run, not imported: import.meta.url names the file by its real path (symlinks resolved), argv[1] as typed.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await createEchoServer().serve();
}
