/**
 * The listing's example, whole: `pico({ name: "weather" }).tool("forecast", { … }).serve()` is a
 * complete MCP server. `node --import tsx examples/weather.ts` serves it over stdio: point an MCP
 * client at that command. It gives no version, so clients see "0.0.0" (docs/tools.md, "The server").
 *
 * The forecast comes from a small table, so that the example runs offline and answers the same
 * every time; a real server would ask a weather service in `run` (pass it `ctx.signal`).
 */

import { pico } from "picomcp";
import { z } from "zod";

/** Each city's coming week: conditions, and the low and high in °C. */
const WEEK: Record<string, [conditions: string, low: number, high: number][]> = {
  Lisbon: [
    ["sunny", 14, 24],
    ["sunny", 15, 25],
    ["partly cloudy", 15, 23],
    ["light rain", 13, 19],
    ["partly cloudy", 13, 21],
    ["sunny", 14, 24],
    ["sunny", 15, 26],
  ],
  Oslo: [
    ["snow", -6, -1],
    ["cloudy", -8, -3],
    ["sunny", -11, -4],
    ["sunny", -12, -5],
    ["snow", -7, -2],
    ["cloudy", -4, 0],
    ["light rain", -1, 3],
  ],
  Nairobi: [
    ["partly cloudy", 14, 26],
    ["thunderstorms", 15, 24],
    ["thunderstorms", 15, 23],
    ["partly cloudy", 14, 25],
    ["sunny", 13, 27],
    ["sunny", 13, 28],
    ["partly cloudy", 14, 26],
  ],
  Tokyo: [
    ["sunny", 6, 14],
    ["cloudy", 7, 13],
    ["rain", 8, 12],
    ["sunny", 5, 15],
    ["sunny", 4, 14],
    ["cloudy", 6, 12],
    ["partly cloudy", 7, 14],
  ],
};

const DAYS = ["today", "tomorrow", "in 2 days", "in 3 days", "in 4 days", "in 5 days", "in 6 days"];

pico({ name: "weather" })
  .tool("forecast", {
    title: "Weather forecast",
    description:
      "The weather forecast for a city for the coming days: conditions and the day's low and high in °C. " +
      "Use it when the user asks what the weather will be like.",
    input: z.object({
      city: z.string().describe('The city, such as "Lisbon"'),
      days: z.number().int().min(1).max(7).default(3).describe("How many days, counting today: 1 to 7"),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ city, days }) => {
      const name = Object.keys(WEEK).find((known) => known.toLowerCase() === city.trim().toLowerCase());
      if (!name) {
        throw new Error(`No forecast for "${city}". Forecasts exist for ${Object.keys(WEEK).join(", ")}.`);
      }
      const lines = WEEK[name]!.slice(0, days).map(
        ([conditions, low, high], day) => `${DAYS[day]}: ${conditions}, ${low} to ${high} °C`,
      );
      return [`${name}:`, ...lines].join("\n");
    },
  })
  .serve();
