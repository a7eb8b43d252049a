// Size fixture (test/size.test.ts): the smallest useful server, a stdio tool server.
// Bundled with the schema library external, so the bundle is picomcp's code plus these few lines.
import { z } from "zod";
import { pico } from "../../src/index.js";

await pico({ name: "calculator", version: "1.0.0" })
  .tool("add", {
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => String(a + b),
  })
  .serve();
