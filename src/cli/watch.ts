/**
 * Watches a server's folder for changes to code: `fs.watch` on the folder and its subfolders (not
 * node_modules, dist or hidden ones; at most MAX_FOLDERS), one non-recursive watcher each, since
 * Node 20's recursive mode on Linux walks and watches every file under the folder, node_modules too.
 * A folder made later is watched from then on. Data files (JSON a tool writes, say) are not code,
 * so they do not restart the server.
 */
import { type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import { join, sep } from "node:path";
import { CODE_FILE } from "./load.js";
import { warn } from "./verb.js";

const MAX_FOLDERS = 200;
const SKIP = new Set(["node_modules", "dist", "build", "coverage"]);

/** Calls `changed` with the path of each code file that changes; returns a function that stops watching. */
export function watchCode(root: string, changed: (path: string) => void): () => void {
  const watchers = new Map<string, FSWatcher>();
  let truncated = false;

  /** Stops watching `folder` and the folders below it (it went away). */
  const forget = (folder: string) => {
    for (const [path, watcher] of watchers) {
      if (path === folder || path.startsWith(folder + sep)) {
        watcher.close();
        watchers.delete(path);
      }
    }
  };

  /**
   * Watches `top` and the folders below it. A folder that appears while watching (made, moved in,
   * checked out) may hold code written before its watcher started: with `found`, that code counts
   * as changed.
   */
  const add = (top: string, found: boolean) => {
    const folders = [top];
    for (const folder of folders) {
      if (watchers.has(folder)) continue;
      if (watchers.size >= MAX_FOLDERS) {
        if (!truncated) {
          warn(
            `picomcp dev: only ${MAX_FOLDERS} folders under ${root} are watched; changes in the others do not restart the server (give dev a file in a smaller folder).`,
          );
        }
        truncated = true;
        return;
      }
      try {
        // Watched before it is read, so that nothing written in between is missed.
        const watcher = watch(folder, (_event, name) => {
          if (name) seen(join(folder, name), name);
        });
        // A folder removed while watched may end its watcher with an error instead of an event.
        watcher.on("error", () => forget(folder));
        watchers.set(folder, watcher);
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          if (entry.isDirectory()) {
            if (watchable(entry.name)) folders.push(join(folder, entry.name));
          } else if (found && CODE_FILE.test(entry.name)) {
            changed(join(folder, entry.name));
          }
        }
      } catch {
        // A folder that went away or cannot be read is not watched.
        forget(folder);
      }
    }
  };

  /** A change to `name` in a watched folder: code that changed, or a folder that came or went. */
  const seen = (path: string, name: string) => {
    if (CODE_FILE.test(name)) changed(path);
    else if (!watchable(name)) return;
    else if (isFolder(path)) add(path, true);
    else forget(path);
  };

  add(root, false);
  return () => {
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}

function watchable(name: string): boolean {
  return !name.startsWith(".") && !SKIP.has(name);
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
