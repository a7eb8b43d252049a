// The base plus a tool that asks the user with ctx.elicit (the asking layer).
import { z } from "zod";
import { weather } from "./weather.js";

weather()
  .tool("book_trip", {
    description: "Books a trip to a city, once the user has said for how many nights.",
    input: z.object({ city: z.string() }),
    run: async ({ city }, ctx) => {
      const answer = await ctx.elicit(`How many nights in ${city}?`, z.object({ nights: z.number().int().min(1) }));
      return answer.action === "accept" ? `Booked ${answer.content.nights} nights in ${city}.` : "Not booked.";
    },
  })
  .serve();
