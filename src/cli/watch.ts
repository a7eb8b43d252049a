/**
 * Watches a server's folder for changes to code: `fs.watch` on the folder and its subfolders (not
 * node_modules, dist or hidden ones; at most MAX_FOLDERS), one non-recursive watcher each, since
 * Node 20's recursive mode on Linux walks and watches every file under the folder, node_modules too.
 * Data files (JSON a tool writes, say) are not code, so they do not restart the server.
 */
import { type FSWatcher, readdirSync, watch } from "node:fs";
import { join } from "node:path";

const MAX_FOLDERS = 200;
const SKIP = new Set(["node_modules", "dist", "build", "coverage"]);
const CODE = /\.([mc]?[jt]sx?)$/;

/** Calls `changed` with the path of each code file that changes; returns a function that stops watching. */
export function watchCode(root: string, changed: (path: string) => void): () => void {
  const watchers: FSWatcher[] = [];
  const folders = [root];
  for (let i = 0; i < folders.length && folders.length <= MAX_FOLDERS; i++) {
    const folder = folders[i]!;
    try {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        if (entry.isDirectory() && !entry.name.startsWith(".") && !SKIP.has(entry.name)) {
          folders.push(join(folder, entry.name));
        }
      }
      watchers.push(
        watch(folder, (_event, name) => {
          if (name && CODE.test(name)) changed(join(folder, name));
        }),
      );
    } catch {
      // A folder that went away or cannot be read is not watched.
    }
  }
  return () => {
    for (const watcher of watchers) watcher.close();
  };
}
