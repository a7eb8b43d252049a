/**
 * The plan linter (`lint` in `picomcp/testing`): the tool-design guide's checks on a server's tool
 * plan, and the per-tool checklist in the guide's contract form.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../src/index.js";
import { lint } from "../src/testing.js";
import headerPlan from "./fixtures/header-plan-server.js";

const rules = async (server: Parameters<typeof lint>[0]) =>
  (await lint(server)).findings.map((finding) => `${finding.severity} ${finding.tool}: ${finding.rule}`);

describe("lint()", () => {
  it("flags each way a plan goes wrong", async () => {
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
    expect(await rules(server)).toEqual([
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
    const report = await lint(server);
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

  it("flags read-only tools that need write scopes, and public tools that write on a server with auth", async () => {
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
    expect(await rules(server)).toEqual(["error list_notes: readonly-but-writes", "warning post_note: public-write"]);
  });

  it("flags credentials the model would have to supply, and secrets a result would carry", async () => {
    const server = pico({ name: "crm", version: "1" })
      .tool("import_contacts", {
        description: "Imports the contacts of a mailbox into the CRM, skipping the ones already there.",
        input: z.object({
          mailbox: z.string().describe("The mailbox address."),
          apiKey: z.string().describe("The CRM key."),
          login: z
            .object({ user: z.string().describe("Who."), password: z.string().describe("Theirs.") })
            .describe("The mailbox login."),
          page_token: z.string().optional().describe("Where the previous page ended."),
          max_tokens: z.number().optional().describe("How long the summary may be."),
        }),
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
        run: () => "",
      })
      .tool("get_integration", {
        description: "Shows how the CRM is connected to the mail provider, and since when, for support.",
        output: z.object({
          provider: z.string(),
          accounts: z.array(z.object({ email: z.string(), refreshToken: z.string() })),
          client_secret: z.string(),
          tokenizer: z.string(),
        }),
        annotations: { readOnlyHint: true, openWorldHint: false },
        run: () => ({ provider: "", accounts: [], client_secret: "", tokenizer: "" }),
      });
    const findings = (await lint(server)).findings.filter((f) => f.rule.startsWith("credential-"));
    expect(findings.map((f) => `${f.severity} ${f.tool}: ${f.rule} ${f.message.split(" looks")[0]}`)).toEqual([
      'warning import_contacts: credential-input input field "apiKey"',
      'warning import_contacts: credential-input input field "login.password"',
      'warning get_integration: credential-output output field "accounts[].refreshToken"',
      'warning get_integration: credential-output output field "client_secret"',
    ]);
    expect(findings[0]?.message).toBe(
      "input field \"apiKey\" looks like a credential: the model would have to supply it, so it would pass through the conversation. Take it from the caller's identity (ctx.auth) or the server's configuration (secret()) instead",
    );
  });

  it("flags each x-mcp-header annotation for which 2026-07-28 clients drop the tool, saying what to change", async () => {
    const findings = (await lint(headerPlan)).findings.filter((f) => f.rule.startsWith("x-mcp-header"));
    // mirrored's annotations keep the rules, so it has none (test/peers/header-annotations.test.ts: one per other tool).
    expect(findings.some((f) => f.tool === "mirrored")).toBe(false);
    const message = (tool: string) => findings.find((f) => f.tool === tool)?.message;
    const dropped = "or 2026-07-28 clients using Streamable HTTP leave the tool out of the tools they offer the model";
    expect(message("name_with_space")).toBe(
      `input field "region" has x-mcp-header "My Region", which is not an HTTP header name: use a non-empty name of letters, digits and !#$%&'*+-.^_\`|~ only, no spaces or colons (such as "Region", sent as Mcp-Param-Region), ${dropped}`,
    );
    expect(message("name_not_string")).toMatch(
      /^input field "region" has x-mcp-header 7, which is not an HTTP header name/,
    );
    expect(message("name_twice")).toBe(
      `input field "to" has x-mcp-header "REGION", and input field "from" has "Region": header names ignore case, so both would be one Mcp-Param-REGION header. Give each field its own name, ${dropped}`,
    );
    expect(message("type_nullable")).toBe(
      `input field "region" has x-mcp-header "Region", but its type is ["string","null"]: only a string, integer or boolean field can be mirrored into a header (not number, object, array or null, nor several types). Make it one (.int() on a number, .optional() rather than .nullable()) or remove the x-mcp-header, ${dropped}`,
    );
    expect(message("type_number")).toMatch(/^input field "ratio" has x-mcp-header "Ratio", but its type is "number": /);
    expect(message("under_items")).toBe(
      `x-mcp-header "City" is on "stops[].city": only a field the input schema reaches through properties alone can be mirrored into a header, not the schema itself nor one under array items, anyOf/oneOf/allOf/not, if/then/else or additionalProperties, nor one in $defs reached through $ref (where zod puts a schema given an id). Move it to such a field or remove it, ${dropped}`,
    );
    expect(["under_any_of", "under_defs", "on_root", "under_else"].map((tool) => message(tool)?.split(":")[0])).toEqual(
      [
        'x-mcp-header "City" is on "place.anyOf[0].city"',
        'x-mcp-header "Region" is on "$defs.Region"',
        'x-mcp-header "Root" is on the input schema itself',
        'x-mcp-header "Region" is on "else.region"',
      ],
    );
  });

  it("lowers an overlap to info when one description names the other tool", async () => {
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
    expect(await rules(server)).toEqual(["info search_products: overlapping-descriptions"]);
  });

  it("says each tool's overlaps in one finding, naming the closest five, however many tools are alike", async () => {
    let server = pico({ name: "t", version: "1" });
    for (let i = 0; i < 200; i++) {
      server = server.tool(`search_products_${i}`, {
        description: `Search the product catalogue by words in product names and descriptions, shelf ${i % 3}.`,
        annotations: { readOnlyHint: true, openWorldHint: false },
        run: () => "",
      });
    }
    const overlapping = (await lint(server)).findings.filter((finding) => finding.rule === "overlapping-descriptions");
    // One per tool that overlaps a later one (199), not one per pair (19,900).
    expect(overlapping).toHaveLength(199);
    expect(overlapping[0]!.message).toMatch(
      /^overlaps with (search_products_\d+ \(score 0\.\d\d\), ){4}search_products_\d+ \(score 0\.\d\d\) and 194 more: say when to use each one instead of the other$/,
    );
    expect(overlapping[198]!.message).toMatch(/^overlaps with search_products_199 \(score 0\.\d\d\): say when/);
  });

  it("writes each tool's contract in the guide's form, with TODO where the definition is silent", async () => {
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
    expect((await lint(server)).checklist).toBe(
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
    const printed = String(await lint(server));
    expect(printed).toContain("## Findings");
    expect(printed).toMatch(/error {3}ping: no description/);
    expect(printed).toMatch(/2 tools, 1 error, \d+ warnings?\n$/);
  });
});
