/**
 * The plan linter (`lint` in `picomcp/testing`): the tool-design guide's checks on a server's tool
 * plan, and the per-tool checklist in the guide's contract form.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../src/index.js";
import { lint } from "../src/testing.js";

const rules = (server: Parameters<typeof lint>[0]) =>
  lint(server).findings.map((finding) => `${finding.severity} ${finding.tool}: ${finding.rule}`);

describe("lint()", () => {
  it("flags each way a plan goes wrong", () => {
    const server = pico({ name: "shop", version: "1" })
      .tool("get_order", {
        description: "Get order.",
        input: z.object({ order_id: z.string() }),
        annotations: { readOnlyHint: true, openWorldHint: false },
        run: () => "",
      })
      .tool("delete_order", {
        description: "Deletes an order forever, with its invoices and shipments. Confirm with the user first.",
        input: z.object({ order_id: z.string().describe("The order to delete.") }),
        annotations: { readOnlyHint: true, destructiveHint: true, openWorldHint: false },
        run: () => "",
      })
      .tool("refund_payment", {
        description: "Refunds the payment of an order to the customer's card, in full or in part.",
        input: z.object({
          payment_id: z.string().describe("The payment to refund."),
          amount: z.object({ cents: z.number() }).describe("How much."),
        }),
        run: () => "",
      })
      .tool("search_products", {
        description: "Search the product catalogue by words in product names and descriptions, in stock first.",
        input: z.object({ query: z.string().describe("Words to look for.") }),
        annotations: { readOnlyHint: true },
        run: () => "",
      })
      .tool("find_products", {
        description: "Search the product catalogue by words in product names and descriptions.",
        input: z.object({ query: z.string().describe("Words to look for.") }),
        annotations: { readOnlyHint: true, openWorldHint: false },
        run: () => "",
      })
      .tool("archive_order", {
        description: "Moves an order to the archive, where it is kept but no longer listed.",
        input: z.object({ order_id: z.string().describe("The order.") }),
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
        run: () => "",
      });
    expect(rules(server)).toEqual([
      "warning get_order: description-restates-name",
      "warning get_order: field-undescribed",
      "error delete_order: readonly-and-destructive",
      "error delete_order: readonly-but-writes",
      "warning refund_payment: field-undescribed",
      "warning refund_payment: annotations-missing",
      "warning search_products: annotations-incomplete",
      "warning archive_order: destructive-understated",
      "warning search_products: overlapping-descriptions",
      "warning refund_payment: id-without-read",
      "warning archive_order: id-without-read",
    ]);
    const report = lint(server);
    expect(report.errors).toBe(2);
    expect(report.warnings).toBe(9);
    expect(report.findings.find((f) => f.rule === "field-undescribed" && f.tool === "refund_payment")?.message).toBe(
      'input field "amount.cents" has no description (.describe() it)',
    );
    // get_order has no output schema, so no read tool hands out an order_id; delete_order is marked
    // read-only (wrongly, as flagged above), so only the other write tools are asked where their ids come from.
    expect(report.findings.filter((f) => f.rule === "id-without-read").map((f) => f.message)).toEqual([
      'takes "payment_id", but no read-only tool with an output schema returns a field named "payment_id": how does the model find one?',
      'takes "order_id", but no read-only tool with an output schema returns a field named "order_id": how does the model find one?',
    ]);
  });

  it("flags read-only tools that need write scopes, and public tools that write on a server with auth", () => {
    const server = pico({ name: "t", version: "1", auth: { required: false } })
      .tool("list_notes", {
        description: "Lists the notes of the signed-in user, newest first, with their ids and titles.",
        annotations: { readOnlyHint: true, openWorldHint: false },
        auth: { scopes: ["notes:write"] },
        run: () => "",
      })
      .tool("post_note", {
        description: "Posts a new note to the signed-in user's public notebook for anyone to read.",
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
        auth: "public",
        run: () => "",
      });
    expect(rules(server)).toEqual(["error list_notes: readonly-but-writes", "warning post_note: public-write"]);
  });

  it("lowers an overlap to info when one description names the other tool", () => {
    const server = pico({ name: "t", version: "1" })
      .tool("search_products", {
        description: "Search the product catalogue by words in product names and descriptions. See find_products.",
        annotations: { readOnlyHint: true, openWorldHint: false },
        run: () => "",
      })
      .tool("find_products", {
        description: "Search the product catalogue by words in product names and descriptions.",
        annotations: { readOnlyHint: true, openWorldHint: false },
        run: () => "",
      });
    expect(rules(server)).toEqual(["info search_products: overlapping-descriptions"]);
  });

  it("writes each tool's contract in the guide's form, with TODO where the definition is silent", () => {
    const server = pico({ name: "t", version: "1", auth: { required: false } })
      .tool("create_note", {
        title: "Create a note",
        description: "Creates a note in the signed-in user's notebook and returns its id.",
        input: z.object({ text: z.string().max(500).describe("The note."), pinned: z.boolean().default(false) }),
        output: z.object({ id: z.string(), text: z.string() }),
        auth: { scopes: ["notes:write"] },
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
        run: () => ({ id: "n1", text: "" }),
      })
      .tool("ping", { auth: "public", run: () => "pong" });
    expect(lint(server).checklist).toBe(
      [
        "## create_note",
        "",
        "- **Name**: create_note",
        "- **Title**: Create a note",
        "- **Description**: Creates a note in the signed-in user's notebook and returns its id.",
        "- **Input**:",
        "  - `text` string, required — The note.",
        "  - `pinned` boolean, optional, default false — TODO: describe",
        "- **Output**: `id`, `text`",
        "- **Authorization**: a signed-in caller; scopes notes:write",
        "- **Side effects**: changes state, reversible, not idempotent, within the server's own data",
        "- **Failure behaviour**: invalid arguments are a tool error naming the field, and run does not execute; a refused caller gets a sign-in or step-up challenge (or a not-permitted error) before validation; errors thrown by run reach the model as tool errors (message only)",
        "",
        "## ping",
        "",
        "- **Name**: ping",
        "- **Title**: TODO: a short action label",
        "- **Description**: TODO: the user's goal and when to call it",
        "- **Input**: none",
        "- **Output**: TODO: no output schema (text only)",
        "- **Authorization**: public: anyone, signed in or not",
        "- **Side effects**: TODO: not declared (no annotations)",
        "- **Failure behaviour**: invalid arguments are a tool error naming the field, and run does not execute; a refused caller gets a sign-in or step-up challenge (or a not-permitted error) before validation; errors thrown by run reach the model as tool errors (message only)",
        "",
      ].join("\n"),
    );
    const printed = String(lint(server));
    expect(printed).toContain("## Findings");
    expect(printed).toMatch(/error {3}ping: no description/);
    expect(printed).toMatch(/2 tools, 1 error, \d+ warnings?\n$/);
  });
});
