// Layer size fixtures (test/size-layers.test.ts): the listing's server, the same as
// test/size/weather-stdio.ts, for each fixture of this folder to add one layer to.
import { z } from "zod";
import { pico, type ServerOptions } from "../../../src/index.js";
import { forecast } from "../forecasts.js";

/** The listing's server; `options` adds to `{ name: "weather" }` (the auth row's `auth`). */
export function weather(options: Omit<ServerOptions, "name"> = {}) {
  return pico({ name: "weather", ...options }).tool("forecast", {
    title: "Weather forecast",
    description:
      "The weather forecast for a city for the coming days: conditions and the day's low and high in °C. " +
      "Use it when the user asks what the weather will be like.",
    input: z.object({
      city: z.string().describe('The city, such as "Lisbon"'),
      days: z.number().int().min(1).max(7).default(3).describe("How many days, counting today: 1 to 7"),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ city, days }) => forecast(city, days),
  });
}
