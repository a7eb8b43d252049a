import { z } from "zod";
import { pico } from "../../src/index.js";

await pico({ name: "echo", version: "1.0.0" })
  .tool("echo", { input: z.object({ text: z.string() }), run: ({ text }) => text })
  .serve({ port: Number(process.env.PORT ?? 3000) });
