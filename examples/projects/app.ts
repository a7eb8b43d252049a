/**
 * A project tracker as an MCP server: five tools, one task each. Reading and writing are separate
 * tools, so a client can let the model look around freely and ask the user before anything changes.
 * Each project is also a resource the user can attach (`projects://{id}`), and a prompt writes a
 * status report on one. `server.ts` serves it; the tests call it in-process.
 */

import { type Context, ErrorCode, embed, McpError, pico, user } from "picomcp";
import { z } from "zod";
import { type Project, type ProjectData, ProjectStore, STATUSES } from "./store.js";

/** Input fields several tools share. Every description ends up in the JSON Schema the model reads. */
const field = {
  id: z.string().min(1).describe('The project\'s id, such as "prj_12", from list_projects or create_project.'),
  name: z.string().trim().min(1).max(100).describe('A short, unique name, such as "Website redesign".'),
  description: z.string().max(2000).describe("What the project is for, in a few sentences of plain text."),
  status: z.enum(STATUSES).describe('"planned" (not started yet), "active", "on_hold" (paused) or "done".'),
  dueDate: z.iso.date().describe("The date the project should be finished by, as YYYY-MM-DD."),
};

/** What the write tools and get_project return: the whole project, with its stable id. */
const project = z.object({
  id: z.string().describe("Stable id: pass it to get_project, update_project and archive_project."),
  name: z.string(),
  description: z.string(),
  status: z.enum(STATUSES),
  dueDate: z.string().nullable().describe("YYYY-MM-DD, or null when there is no due date."),
  archived: z.boolean().describe("Archived projects are read-only and left out of list_projects by default."),
  createdAt: z.string().describe("When the project was created (ISO 8601)."),
  updatedAt: z.string().describe("When the project last changed (ISO 8601)."),
});

const summary = project.pick({ id: true, name: true, status: true, dueDate: true, archived: true });

/** Builds the server on a data file; nothing is read or written until a tool is called. */
export function createProjectsServer(file: string) {
  const store = new ProjectStore(file);

  return pico({
    name: "projects",
    version: "1.0.0",
    title: "Project tracker",
    instructions:
      "Tracks the user's projects. Find projects with list_projects before reading or changing one; every other tool needs a project id such as prj_12.",
  })
    .tool("list_projects", {
      title: "List projects",
      description:
        "Find projects by status or by words in their name or description. Returns each project's id, name, status and due date; call get_project for the full details of one. Archived projects are left out unless includeArchived is true.",
      input: z.object({
        query: z
          .string()
          .optional()
          .describe("Only projects whose name or description contains this text, ignoring case."),
        status: field.status.optional().describe("Only projects with this status. Leave it out to list every status."),
        includeArchived: z.boolean().default(false).describe("Also list archived projects."),
        limit: z.number().int().min(1).max(100).default(20).describe("The most projects to return, from 1 to 100."),
      }),
      output: z.object({
        projects: z.array(summary),
        total: z.number().int().describe("How many projects match; more than are listed when the limit cut the list."),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
      run: ({ query, status, includeArchived, limit }) =>
        store.read(({ projects }) => {
          const words = query?.toLowerCase();
          const matches = projects.filter(
            (p) =>
              (includeArchived || !p.archived) &&
              (status === undefined || p.status === status) &&
              (words === undefined || `${p.name}\n${p.description}`.toLowerCase().includes(words)),
          );
          // Whole projects go in; the output schema sends only the summary fields it names.
          return { projects: matches.slice(0, limit), total: matches.length };
        }),
    })

    .tool("get_project", {
      title: "Get a project",
      description:
        "Read one project in full: its description, status, due date, whether it is archived, and when it was created and last changed. Needs the project's id; list_projects finds it.",
      input: z.object({ id: field.id }),
      output: project,
      annotations: { readOnlyHint: true, openWorldHint: false },
      run: ({ id }) => store.read((data) => findProject(data, id)),
    })

    .tool("create_project", {
      title: "Create a project",
      description:
        "Start tracking a new project. Names must be unique among projects that are not archived, so check list_projects first when the project may already exist. Returns the new project and its id.",
      input: z.object({
        name: field.name,
        description: field.description.default(""),
        status: field.status.default("planned"),
        dueDate: field.dueDate.optional(),
      }),
      output: project,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: ({ name, description, status, dueDate }) =>
        store.change((data) => {
          checkNameIsFree(data, name);
          const now = new Date().toISOString();
          const created: Project = {
            id: `prj_${data.nextId++}`,
            name,
            description,
            status,
            dueDate: dueDate ?? null,
            archived: false,
            createdAt: now,
            updatedAt: now,
          };
          data.projects.push(created);
          return created;
        }),
    })

    .tool("update_project", {
      title: "Update a project",
      description:
        "Change a project's name, description, status or due date. Pass the id and only the fields to change; the others keep their values. Archived projects cannot be changed.",
      input: z.object({
        id: field.id,
        name: field.name.optional(),
        description: field.description.optional(),
        status: field.status.optional(),
        dueDate: field.dueDate.nullable().optional().describe("The new due date as YYYY-MM-DD, or null to remove it."),
      }),
      output: project,
      // Not destructive: every change can be reverted with another update_project call.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: ({ id, name, description, status, dueDate }) =>
        store.change((data) => {
          const target = findProject(data, id);
          if (target.archived) {
            throw new Error(
              `Project "${id}" ("${target.name}") is archived, and archived projects cannot be changed. If the work goes on, start a new project with create_project.`,
            );
          }
          if (name === undefined && description === undefined && status === undefined && dueDate === undefined) {
            throw new Error(
              "Nothing to change: pass at least one of name, description, status or dueDate with the id.",
            );
          }
          if (name !== undefined) {
            checkNameIsFree(data, name, id);
            target.name = name;
          }
          if (description !== undefined) target.description = description;
          if (status !== undefined) target.status = status;
          if (dueDate !== undefined) target.dueDate = dueDate;
          target.updatedAt = new Date().toISOString();
          return target;
        }),
    })

    .tool("archive_project", {
      title: "Archive a project",
      description:
        "Archive a finished or abandoned project. An archived project is hidden from list_projects and can no longer be changed, and no tool undoes this. When the client can show the user a form, the server asks the user to confirm first and archives nothing without a yes; otherwise, confirm with the user yourself before calling it. Archiving an archived project changes nothing.",
      input: z.object({ id: field.id }),
      output: project,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      run: async ({ id }, ctx) => {
        // This handler runs again from the top once the user has answered, so everything before the
        // question only reads; the change comes after it.
        const current = await store.read((data) => findProject(data, id));
        if (current.archived) return current;
        if (canShowForm(ctx)) {
          const confirmed = await ctx.confirm(
            `Archive the project "${current.name}" (${id})? It will be hidden from the project list and can no longer be changed.`,
            { key: "archive" },
          );
          if (!confirmed) {
            throw new Error(
              `The user did not confirm, so project "${id}" ("${current.name}") was not archived. Do not call archive_project for it again unless the user asks to.`,
            );
          }
        }
        return store.change((data) => {
          const target = findProject(data, id);
          if (!target.archived) {
            target.archived = true;
            target.updatedAt = new Date().toISOString();
          }
          return target;
        });
      },
    })

    .resource("projects://{id}", {
      // Each project as JSON, for clients that let the user attach a resource to the conversation.
      // The projects in use are listed; ids complete as the user types one.
      name: "project",
      title: "Project",
      description: "One project with all its fields, as JSON.",
      mimeType: "application/json",
      list: () =>
        store.read(({ projects }) =>
          projects
            .filter((p) => !p.archived)
            .map((p) => ({ uri: `projects://${p.id}`, name: p.name, description: describeStatus(p) })),
        ),
      complete: { id: () => store.read(({ projects }) => projects.map((p) => p.id)) },
      // No such project: undefined, and the client gets the "resource not found" error of its protocol revision.
      read: ({ id }) =>
        store.read(({ projects }) => {
          const found = projects.find((p) => p.id === id);
          return found && JSON.stringify(found, null, 2);
        }),
    })

    .prompt("status_report", {
      // The user picks "Project status report" in the client and chooses a project; the model gets
      // the project itself, embedded, and what to write.
      title: "Project status report",
      description: "Write a short status report on one project: where it stands, what is at risk, what comes next.",
      input: z.object({
        id: z.string().min(1).describe('The project to report on, such as "prj_12".'),
        audience: z.string().optional().describe('Who reads the report, such as "the leadership team".'),
      }),
      complete: { id: () => store.read(({ projects }) => projects.map((p) => p.id)) },
      get: async ({ id, audience }) => {
        const found = await store.read(({ projects }) => projects.find((p) => p.id === id));
        if (!found) {
          throw new McpError(ErrorCode.InvalidParams, `There is no project with id "${id}". Pick one from the list.`);
        }
        return {
          description: `Status report on "${found.name}"`,
          messages: [
            user(embed(`projects://${found.id}`, JSON.stringify(found, null, 2), { mimeType: "application/json" })),
            user(
              `Write a status report on the project above for ${audience ?? "its stakeholders"}, in under 200 words: where it stands (${describeStatus(found)}), what is at risk, and the next step. Today is ${new Date().toISOString().slice(0, 10)}.`,
            ),
          ],
        };
      },
    });
}

/** "active, due 2026-03-31": a project's status in a few words. */
function describeStatus(project: Project): string {
  const status = project.archived ? `${project.status}, archived` : project.status;
  return project.dueDate ? `${status}, due ${project.dueDate}` : status;
}

/** Whether the client can show the user a form: a bare `elicitation: {}` means form mode. */
function canShowForm(ctx: Context): boolean {
  const elicitation = ctx.client.capabilities.elicitation;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

/** The project with this id, or an error that tells the model how to find the right one. */
function findProject(data: ProjectData, id: string): Project {
  const found = data.projects.find((p) => p.id === id);
  if (!found) {
    throw new Error(`There is no project with id "${id}". Call list_projects to find the project's id.`);
  }
  return found;
}

/** Names are unique among projects in use, so the user and the model can tell projects apart by name. */
function checkNameIsFree(data: ProjectData, name: string, exceptId?: string): void {
  const taken = data.projects.find(
    (p) => !p.archived && p.id !== exceptId && p.name.toLowerCase() === name.toLowerCase(),
  );
  if (taken) {
    throw new Error(
      `A project named "${taken.name}" already exists (id "${taken.id}"). Choose another name, or call update_project with id "${taken.id}" to change that project.`,
    );
  }
}
