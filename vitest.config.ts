import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = fileURLToPath(new URL("./src/", import.meta.url));

export default defineConfig({
  // The examples import "picomcp" as a user's program does: in the repository that is the source
  // (as tsconfig.json's paths say for tsc and tsx), in the published package its dist/.
  resolve: {
    alias: [
      { find: /^picomcp$/, replacement: `${src}index.ts` },
      { find: /^picomcp\/(jwt|introspection|redis|testing)$/, replacement: `${src}$1.ts` },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    typecheck: { include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    setupFiles: ["test/setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
