import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createProjectsServer } from "../../examples/projects/app.js";
import type { InputRequest } from "../../src/index.js";
import { modern } from "../http-helpers.js";
import { tsxProgram } from "../peers/fixture.js";

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "picomcp-projects-"));
  file = join(dir, "nested", "projects.json");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The text a model would read from a result. */
function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? "").join("\n");
}

describe("the projects example, called in-process", () => {
  it("creates, lists, reads, updates and archives a project", async () => {
    const server = createProjectsServer(file);

    const empty = await server.call("list_projects", {});
    expect(empty.structuredContent).toEqual({ projects: [], total: 0 });
    expect(existsSync(file)).toBe(false);

    const created = await server.call("create_project", { name: "Website redesign", dueDate: "2026-03-31" });
    expect(created.isError).toBeUndefined();
    expect(created.structuredContent).toMatchObject({
      id: "prj_1",
      name: "Website redesign",
      description: "",
      status: "planned",
      dueDate: "2026-03-31",
      archived: false,
    });
    // The JSON text copy says the same as structuredContent, for clients that read only text.
    expect(JSON.parse(textOf(created))).toEqual(created.structuredContent);
    expect(existsSync(file)).toBe(true);

    await server.call("create_project", {
      name: "Hire a designer",
      description: "Two interviews a week.",
      status: "active",
    });

    const listed = await server.call("list_projects", {});
    expect(listed.structuredContent).toEqual({
      projects: [
        { id: "prj_1", name: "Website redesign", status: "planned", dueDate: "2026-03-31", archived: false },
        { id: "prj_2", name: "Hire a designer", status: "active", dueDate: null, archived: false },
      ],
      total: 2,
    });
    const active = await server.call("list_projects", { status: "active" });
    expect(active.structuredContent?.projects.map((p) => p.id)).toEqual(["prj_2"]);
    const byWords = await server.call("list_projects", { query: "INTERVIEWS" });
    expect(byWords.structuredContent?.projects.map((p) => p.id)).toEqual(["prj_2"]);
    const cut = await server.call("list_projects", { limit: 1 });
    expect(cut.structuredContent).toMatchObject({ projects: [{ id: "prj_1" }], total: 2 });

    const got = await server.call("get_project", { id: "prj_2" });
    expect(got.structuredContent).toMatchObject({ id: "prj_2", description: "Two interviews a week." });

    const updated = await server.call("update_project", { id: "prj_1", status: "active", dueDate: null });
    expect(updated.structuredContent).toMatchObject({
      id: "prj_1",
      name: "Website redesign",
      status: "active",
      dueDate: null,
    });

    const archived = await server.call("archive_project", { id: "prj_1" });
    expect(archived.structuredContent).toMatchObject({ id: "prj_1", archived: true });
    const again = await server.call("archive_project", { id: "prj_1" });
    expect(again.structuredContent).toEqual(archived.structuredContent);

    const afterArchive = await server.call("list_projects", {});
    expect(afterArchive.structuredContent?.projects.map((p) => p.id)).toEqual(["prj_2"]);
    const withArchived = await server.call("list_projects", { includeArchived: true });
    expect(withArchived.structuredContent?.projects.map((p) => p.id)).toEqual(["prj_1", "prj_2"]);
  });

  it("keeps its data in the file, for the next server", async () => {
    await createProjectsServer(file).call("create_project", { name: "Garden" });
    const stored = JSON.parse(await readFile(file, "utf8"));
    expect(stored).toMatchObject({ nextId: 2, projects: [{ id: "prj_1", name: "Garden" }] });

    const next = createProjectsServer(file);
    expect((await next.call("get_project", { id: "prj_1" })).structuredContent).toMatchObject({ name: "Garden" });
    expect((await next.call("create_project", { name: "Shed" })).structuredContent?.id).toBe("prj_2");
  });

  it("never loses a change when calls run concurrently", async () => {
    const server = createProjectsServer(file);
    const names = Array.from({ length: 20 }, (_, i) => `Project ${i}`);
    const results = await Promise.all(names.map((name) => server.call("create_project", { name })));
    expect(new Set(results.map((result) => result.structuredContent?.id)).size).toBe(20);
    const listed = await server.call("list_projects", { limit: 100 });
    expect(listed.structuredContent?.total).toBe(20);
  });

  it("tells the model which tool finds a valid id when an id is unknown", async () => {
    const server = createProjectsServer(file);
    for (const [tool, args] of [
      ["get_project", { id: "prj_404" }],
      ["update_project", { id: "prj_404", name: "X" }],
      ["archive_project", { id: "prj_404" }],
    ] as const) {
      const result = await server.call(tool, args);
      expect(result).toEqual({
        content: [
          {
            type: "text",
            text: 'There is no project with id "prj_404". Call list_projects to find the project\'s id.',
          },
        ],
        isError: true,
      });
    }
    expect(existsSync(file)).toBe(false);
  });

  it("refuses changes it cannot make, saying what to do instead", async () => {
    const server = createProjectsServer(file);
    await server.call("create_project", { name: "Website redesign" });

    const duplicate = await server.call("create_project", { name: "website REDESIGN" });
    expect(duplicate.isError).toBe(true);
    expect(textOf(duplicate)).toBe(
      'A project named "Website redesign" already exists (id "prj_1"). Choose another name, or call update_project with id "prj_1" to change that project.',
    );

    const nothing = await server.call("update_project", { id: "prj_1" });
    expect(nothing.isError).toBe(true);
    expect(textOf(nothing)).toMatch(/^Nothing to change: pass at least one of name, description, status or dueDate/);

    await server.call("archive_project", { id: "prj_1" });
    const frozen = await server.call("update_project", { id: "prj_1", status: "done" });
    expect(frozen.isError).toBe(true);
    expect(textOf(frozen)).toBe(
      'Project "prj_1" ("Website redesign") is archived, and archived projects cannot be changed. If the work goes on, start a new project with create_project.',
    );
    // An archived name is free again.
    const reused = await server.call("create_project", { name: "Website redesign" });
    expect(reused.structuredContent?.id).toBe("prj_2");
  });

  it("rejects invalid arguments field by field, before touching the data", async () => {
    const server = createProjectsServer(file);
    const result = await server.call("create_project", { name: "  ", dueDate: "31/03/2026" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Invalid arguments for tool "create_project":\nname: Too small: expected string to have >=1 characters\ndueDate: Invalid ISO date',
    );
    const limit = await server.call("list_projects", { limit: 500 });
    expect(textOf(limit)).toBe(
      'Invalid arguments for tool "list_projects":\nlimit: Too big: expected number to be <=100',
    );
    expect(existsSync(file)).toBe(false);
  });

  it("keeps paths and system errors out of what the model reads", async () => {
    await createProjectsServer(file).call("create_project", { name: "Garden" });
    await writeFile(file, "{ not json");
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const result = await createProjectsServer(file).call("list_projects", {});
    // The details go to the server's own log (stderr)...
    expect(log).toHaveBeenCalledWith(expect.stringContaining(`${file} is not valid JSON`));
    log.mockRestore();
    // ...and the model reads what happened and what to do, without them.
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The project tracker's storage is unavailable/);
    expect(textOf(result)).not.toContain(dir);
    expect(textOf(result)).not.toMatch(/JSON/);
  });
});

describe("archive_project asks the user to confirm, when the client can elicit", () => {
  /** A client that can show forms, answering every question with `answer`, and the questions it saw. */
  function formClient(answer: unknown) {
    const asked: InputRequest[] = [];
    return {
      asked,
      options: {
        client: { capabilities: { elicitation: {} } },
        onInput: (request: InputRequest) => {
          asked.push(request);
          return answer;
        },
      },
    };
  }

  async function withProject() {
    const server = createProjectsServer(file);
    await server.call("create_project", { name: "Website redesign" });
    return server;
  }

  it("archives once the user confirms, after one question that names the project", async () => {
    const server = await withProject();
    const yes = formClient({ action: "accept", content: { confirm: true } });
    const archived = await server.call("archive_project", { id: "prj_1" }, yes.options);
    expect(archived.isError).toBeUndefined();
    expect(archived.structuredContent).toMatchObject({ id: "prj_1", archived: true });
    expect(yes.asked).toEqual([
      {
        method: "elicitation/create",
        params: expect.objectContaining({
          message:
            'Archive the project "Website redesign" (prj_1)? It will be hidden from the project list and can no longer be changed.',
          requestedSchema: expect.objectContaining({ required: ["confirm"] }),
        }),
      },
    ]);
  });

  it("archives nothing when the user declines, cancels or leaves the box unchecked, and tells the model so", async () => {
    const server = await withProject();
    for (const answer of [
      { action: "decline" },
      { action: "cancel" },
      { action: "accept", content: { confirm: false } },
    ]) {
      const result = await server.call("archive_project", { id: "prj_1" }, formClient(answer).options);
      expect(result).toEqual({
        content: [
          {
            type: "text",
            text: 'The user did not confirm, so project "prj_1" ("Website redesign") was not archived. Do not call archive_project for it again unless the user asks to.',
          },
        ],
        isError: true,
      });
    }
    const current = await server.call("get_project", { id: "prj_1" });
    expect(current.structuredContent).toMatchObject({ archived: false });
  });

  it("does not ask about a project that is already archived, or unknown", async () => {
    const server = await withProject();
    await server.call("archive_project", { id: "prj_1" });
    const again = formClient({ action: "accept", content: { confirm: true } });
    expect((await server.call("archive_project", { id: "prj_1" }, again.options)).structuredContent).toMatchObject({
      archived: true,
    });
    expect((await server.call("archive_project", { id: "prj_9" }, again.options)).isError).toBe(true);
    expect(again.asked).toEqual([]);
  });

  it("archives without a question for a client that cannot show a form (the description asks the model to confirm)", async () => {
    const server = await withProject();
    const urlOnly = formClient({ action: "accept" });
    const result = await server.call(
      "archive_project",
      { id: "prj_1" },
      {
        ...urlOnly.options,
        client: { capabilities: { elicitation: { url: {} } } },
      },
    );
    expect(result.structuredContent).toMatchObject({ archived: true });
    expect(urlOnly.asked).toEqual([]);
    const listed = await server.call("list_projects", {});
    expect(listed.structuredContent?.total).toBe(0);
  });
});

describe("the projects example, over stdio", () => {
  it("answers a client on stdout and writes nothing else there", async () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", "examples/projects/stdio.ts"], {
      cwd: root,
      env: { ...process.env, PROJECTS_FILE: file },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const messages = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "create_project", arguments: { name: "Garden" } },
      },
    ];
    child.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(""));
    const code = await new Promise((resolve) => child.on("close", resolve));

    expect(code).toBe(0);
    expect(stderr).toContain(`data in ${file}`);
    const responses = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(responses.map((response) => response.id).sort()).toEqual([1, 2, 3]);

    const tools = responses.find((response) => response.id === 2).result.tools;
    expect(
      Object.fromEntries(tools.map((tool: { name: string; annotations: unknown }) => [tool.name, tool.annotations])),
    ).toEqual({
      list_projects: { readOnlyHint: true, openWorldHint: false },
      get_project: { readOnlyHint: true, openWorldHint: false },
      create_project: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      update_project: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      archive_project: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    });
    for (const tool of tools) {
      expect(tool.outputSchema.properties).toBeDefined();
      for (const [key, property] of Object.entries(tool.inputSchema.properties)) {
        expect((property as { description?: string }).description, `${tool.name}.${key}`).toBeTruthy();
      }
    }

    const created = responses.find((response) => response.id === 3).result;
    expect(created.structuredContent).toMatchObject({ id: "prj_1", name: "Garden" });
    expect(JSON.parse(await readFile(file, "utf8")).projects).toHaveLength(1);
  });
});

describe("the projects example, over HTTP (npm start)", () => {
  it("listens on 127.0.0.1, prints a client config, an Inspector command and a curl call that work", async () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", "examples/projects/server.ts"], {
      cwd: root,
      env: { ...process.env, PROJECTS_FILE: file, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      // The instructions end with how to stop it; wait for the whole text, bounded.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no instructions within 20 s:\n${stdout}${stderr}`)), 20_000);
        child.stdout.on("data", (chunk) => {
          stdout += chunk;
          if (stdout.includes("Ctrl+C")) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stdout)?.[1];
      expect(url, stdout).toBeDefined();
      expect(stdout).toContain(`Data: ${file}`);
      expect(stdout).toContain(JSON.stringify({ mcpServers: { projects: { url } } }, null, 2));
      expect(stdout).toContain(`npx @modelcontextprotocol/inspector@2 --transport http --server-url ${url}`);

      // The printed curl command, sent as curl would send it.
      const curl = stdout.slice(stdout.indexOf(`curl ${url}`));
      const headers = [...curl.matchAll(/-H '([^:]+): ([^']+)'/g)].map(([, name, value]): [string, string] => [
        name!,
        value!,
      ]);
      const body = /-d '([^']+)'/.exec(curl)?.[1];
      const answer = await fetch(url!, { method: "POST", headers, body });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ id: 1, result: { structuredContent: { projects: [], total: 0 } } });

      // The official v1 client: a legacy session over the same endpoint.
      const transport = new StreamableHTTPClientTransport(new URL(url!));
      const client = new Client({ name: "projects-test", version: "1.0.0" });
      await client.connect(transport);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("create_project");
      const created = await client.callTool({ name: "create_project", arguments: { name: "Garden" } });
      expect(created.structuredContent).toMatchObject({ id: "prj_1", name: "Garden" });
      await transport.terminateSession();
      await client.close();
      expect(JSON.parse(await readFile(file, "utf8")).projects).toHaveLength(1);
    } finally {
      child.kill("SIGINT");
    }
    // Ctrl+C closes the listener and exits cleanly.
    expect(await exited).toBe(0);
  }, 30_000);
});

describe("the projects resource and status_report prompt", () => {
  /** A server with two projects, the first archived, and a way to send it 2026-07-28 requests in-process. */
  async function withProjects() {
    const server = createProjectsServer(file);
    await server.call("create_project", { name: "Old site", status: "done" });
    await server.call("archive_project", { id: "prj_1" });
    await server.call("create_project", { name: "Website redesign", status: "active", dueDate: "2026-03-31" });
    const rpc = async (method: string, params: Record<string, unknown> = {}) =>
      (await (await server.fetch(modern(method, params))).json()) as {
        result?: Record<string, unknown>;
        error?: { code: number; message: string; data?: unknown };
      };
    return { server, rpc };
  }

  it("offers each project as projects://{id}, listing those in use", async () => {
    const { rpc } = await withProjects();
    expect((await rpc("resources/templates/list")).result?.resourceTemplates).toEqual([
      {
        uriTemplate: "projects://{id}",
        name: "project",
        title: "Project",
        description: "One project with all its fields, as JSON.",
        mimeType: "application/json",
      },
    ]);
    expect((await rpc("resources/list")).result?.resources).toEqual([
      {
        uri: "projects://prj_2",
        name: "Website redesign",
        description: "active, due 2026-03-31",
        mimeType: "application/json",
      },
    ]);
  });

  it("reads a project, archived ones included, and answers an unknown id with not found", async () => {
    const { server, rpc } = await withProjects();
    const read = await rpc("resources/read", { uri: "projects://prj_1" });
    const project = (await server.call("get_project", { id: "prj_1" })).structuredContent;
    expect(read.result?.contents).toEqual([
      { uri: "projects://prj_1", mimeType: "application/json", text: JSON.stringify(project, null, 2) },
    ]);
    expect((await rpc("resources/read", { uri: "projects://prj_9" })).error).toMatchObject({
      code: -32602,
      data: { uri: "projects://prj_9" },
    });
  });

  it("completes project ids for the resource and the prompt", async () => {
    const { rpc } = await withProjects();
    const resource = await rpc("completion/complete", {
      ref: { type: "ref/resource", uri: "projects://{id}" },
      argument: { name: "id", value: "prj_" },
    });
    expect(resource.result?.completion).toEqual({ values: ["prj_1", "prj_2"], total: 2, hasMore: false });
    const prompt = await rpc("completion/complete", {
      ref: { type: "ref/prompt", name: "status_report" },
      argument: { name: "id", value: "PRJ_2" },
    });
    expect(prompt.result?.completion).toEqual({ values: ["prj_2"], total: 1, hasMore: false });
  });

  it("lists the status_report prompt with its arguments", async () => {
    const { rpc } = await withProjects();
    expect((await rpc("prompts/list")).result?.prompts).toEqual([
      {
        name: "status_report",
        title: "Project status report",
        description: "Write a short status report on one project: where it stands, what is at risk, what comes next.",
        arguments: [
          { name: "id", description: 'The project to report on, such as "prj_12".', required: true },
          { name: "audience", description: 'Who reads the report, such as "the leadership team".', required: false },
        ],
      },
    ]);
  });

  it("gives the model the project, embedded, and what to write", async () => {
    const { server, rpc } = await withProjects();
    const project = (await server.call("get_project", { id: "prj_2" })).structuredContent;
    const result = (
      await rpc("prompts/get", { name: "status_report", arguments: { id: "prj_2", audience: "the board" } })
    ).result as { description: string; messages: { role: string; content: Record<string, unknown> }[] };
    expect(result.description).toBe('Status report on "Website redesign"');
    expect(result.messages).toHaveLength(2);
    expect(result.messages[0]).toEqual({
      role: "user",
      content: {
        type: "resource",
        resource: { uri: "projects://prj_2", text: JSON.stringify(project, null, 2), mimeType: "application/json" },
      },
    });
    expect(result.messages[1]).toMatchObject({ role: "user", content: { type: "text" } });
    expect(result.messages[1]!.content.text).toMatch(
      /^Write a status report on the project above for the board, in under 200 words: where it stands \(active, due 2026-03-31\), what is at risk, and the next step\. Today is \d{4}-\d{2}-\d{2}\.$/,
    );
  });

  it("answers a missing or unknown project id with -32602", async () => {
    const { rpc } = await withProjects();
    expect((await rpc("prompts/get", { name: "status_report", arguments: {} })).error).toEqual({
      code: -32602,
      message: 'Invalid arguments for prompt "status_report":\nid: Invalid input: expected string, received undefined',
    });
    expect((await rpc("prompts/get", { name: "status_report", arguments: { id: "prj_9" } })).error).toEqual({
      code: -32602,
      message: 'There is no project with id "prj_9". Pick one from the list.',
    });
  });

  it("serves them to the official v1 client over stdio", async () => {
    await createProjectsServer(file).call("create_project", { name: "Garden", status: "planned" });
    const transport = new StdioClientTransport(tsxProgram("examples/projects/stdio.ts", { PROJECTS_FILE: file }));
    const client = new Client({ name: "projects-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(["projects://prj_1"]);
      const read = await client.readResource({ uri: "projects://prj_1" });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: "prj_1", name: "Garden" });
      // A 2025 session gets that revision's not-found code.
      await expect(client.readResource({ uri: "projects://prj_2" })).rejects.toMatchObject({
        code: -32002,
        data: { uri: "projects://prj_2" },
      });
      const prompt = await client.getPrompt({ name: "status_report", arguments: { id: "prj_1" } });
      expect(prompt.messages[1]!.content).toMatchObject({
        type: "text",
        text: expect.stringContaining("for its stakeholders, in under 200 words: where it stands (planned)"),
      });
      const ids = await client.complete({
        ref: { type: "ref/prompt", name: "status_report" },
        argument: { name: "id", value: "" },
      });
      expect(ids.completion.values).toEqual(["prj_1"]);
    } finally {
      await client.close();
    }
  });
});
