/** The workload's zod schemas, shared by every server that validates (all but the bare one). */
import { z } from "zod";

export const addInput = z.object({ a: z.number(), b: z.number() });
export const echoInput = z.object({ text: z.string() });
export const statsInput = z.object({ values: z.array(z.number()).min(1) });
export const statsOutput = z.object({ sum: z.number(), count: z.number().int(), mean: z.number() });
