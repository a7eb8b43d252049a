/**
 * The project tracker's storage: one JSON file, read and written whole. Every read and change goes
 * through one queue, so concurrent tool calls (stdio serves them concurrently) never lose each
 * other's writes, and a change is saved by renaming a finished file over the old one, so a crash
 * never leaves half a file behind.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export const STATUSES = ["planned", "active", "on_hold", "done"] as const;
export type Status = (typeof STATUSES)[number];

export interface Project {
  id: string;
  name: string;
  description: string;
  status: Status;
  /** YYYY-MM-DD, or null when the project has no due date. */
  dueDate: string | null;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The whole file. `nextId` only grows, so an id is never given to a second project. */
export interface ProjectData {
  nextId: number;
  projects: Project[];
}

export class ProjectStore {
  readonly file: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: string) {
    this.file = file;
  }

  /** Reads the projects. A missing file is an empty tracker; it is created on the first change. */
  read<T>(use: (data: ProjectData) => T): Promise<T> {
    return this.#enqueue(async () => use(await this.#load()));
  }

  /** Applies a change and saves it. If `edit` throws, nothing is saved and the error is passed on. */
  change<T>(edit: (data: ProjectData) => T): Promise<T> {
    return this.#enqueue(async () => {
      const data = await this.#load();
      const result = edit(data);
      await this.#save(data);
      return result;
    });
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }

  async #load(): Promise<ProjectData> {
    let json: string;
    try {
      json = await readFile(this.file, "utf8");
    } catch (thrown) {
      if ((thrown as NodeJS.ErrnoException).code === "ENOENT") return { nextId: 1, projects: [] };
      throw unavailable(`cannot read ${this.file}`, thrown);
    }
    let data: unknown;
    try {
      data = JSON.parse(json);
    } catch (thrown) {
      throw unavailable(`${this.file} is not valid JSON`, thrown);
    }
    if (!isProjectData(data)) throw unavailable(`${this.file} does not hold { nextId, projects }`);
    return data;
  }

  async #save(data: ProjectData): Promise<void> {
    const partial = `${this.file}.partial`;
    try {
      await mkdir(dirname(this.file), { recursive: true });
      await writeFile(partial, `${JSON.stringify(data, null, 2)}\n`);
      await rename(partial, this.file);
    } catch (thrown) {
      throw unavailable(`cannot write ${this.file}`, thrown);
    }
  }
}

function isProjectData(value: unknown): value is ProjectData {
  const data = value as ProjectData | null;
  return typeof data === "object" && data !== null && Number.isInteger(data.nextId) && Array.isArray(data.projects);
}

/**
 * The details (paths, system errors) go to the server's log on stderr; the model gets a message it
 * can act on and nothing about the machine the server runs on.
 */
function unavailable(detail: string, cause?: unknown): Error {
  console.error(`projects store: ${detail}${cause ? `: ${(cause as Error).message ?? cause}` : ""}`);
  return new Error(
    "The project tracker's storage is unavailable, so nothing was read or changed. This is a problem on the server, not with the request: tell the user, and do not retry.",
  );
}
