import { defineConfig } from "tsdown";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    jwt: "src/jwt.ts",
    introspection: "src/introspection.ts",
    redis: "src/redis.ts",
    testing: "src/testing.ts",
    bin: "src/bin.ts",
  },
  format: "esm",
  platform: "neutral",
  // The library imports no Node built-in (size.test.ts checks the source); the bin, Node only, does.
  deps: { neverBundle: [/^node:/] },
  // Rolldown's note that the d.ts plugin takes most of the build time is true and says nothing to act on.
  inputOptions: { checks: { pluginTimings: false } },
  target: "es2022",
  dts: true,
  clean: true,
  sourcemap: false,
});
