// The forecast table of the size fixtures (test/size/weather-*.ts): examples/weather.ts's tool with
// two of its cities and two days each, so the fixtures' own bytes, which the size rows count, stay a
// small share of a row.

/** Each city's next two days: conditions, and the low and high in °C. */
const WEEK: Record<string, [conditions: string, low: number, high: number][]> = {
  Lisbon: [
    ["sunny", 14, 24],
    ["sunny", 15, 25],
  ],
  Oslo: [
    ["snow", -6, -1],
    ["cloudy", -8, -3],
  ],
};

const DAYS = ["today", "tomorrow"];

/** The forecast's text for `city` over `days` days, or an error that names the cities there are. */
export function forecast(city: string, days: number): string {
  const name = Object.keys(WEEK).find((known) => known.toLowerCase() === city.trim().toLowerCase());
  if (!name) throw new Error(`No forecast for "${city}". Forecasts exist for ${Object.keys(WEEK).join(", ")}.`);
  const lines = WEEK[name]!.slice(0, days).map(
    ([conditions, low, high], day) => `${DAYS[day]}: ${conditions}, ${low} to ${high} °C`,
  );
  return [`${name}:`, ...lines].join("\n");
}
