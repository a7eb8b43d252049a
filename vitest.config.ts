import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    typecheck: { include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    setupFiles: ["test/setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
