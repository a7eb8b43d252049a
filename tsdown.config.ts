import { defineConfig } from "tsdown";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    jwt: "src/jwt.ts",
    introspection: "src/introspection.ts",
    testing: "src/testing.ts",
    bin: "src/bin.ts",
  },
  format: "esm",
  platform: "neutral",
  target: "es2022",
  dts: true,
  clean: true,
  sourcemap: false,
});
