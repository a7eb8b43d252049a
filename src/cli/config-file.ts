/**
 * A client's configuration file as `install` reads and replaces it: replaced whole or not at all
 * (the new text is written to a temporary file beside it, flushed, then renamed over it, which the
 * OS does at once), with its mode and owner, through a symbolic link to the file it names, backed up
 * first; and refused, as it was, when it is read-only or not a file. Each refusal says what to do.
 */
import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { CannotRun } from "./verb.js";

export interface ConfigFile {
  /** The path as given: what messages name, and where the backup goes. */
  readonly path: string;
  /** The file that holds the configuration: `path`, or the file its symbolic link names. */
  readonly target: string;
  /** Its text, "" when it does not exist yet. */
  readonly text: string;
  /** Its mode and owner, when it exists. */
  readonly stats?: Stats;
}

/** A new configuration is its owner's alone: the entry may hold secrets given with --env. */
const NEW_FILE_MODE = 0o600;

export function readConfig(path: string): ConfigFile {
  const link = lstatSync(path, { throwIfNoEntry: false });
  if (!link) return { path, target: path, text: "" };
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats) {
    throw new CannotRun(
      `${path} is a symbolic link to ${readlinkSync(path)}, which does not exist: create that file (it may be empty), or remove the link.`,
    );
  }
  if (!stats.isFile()) throw new CannotRun(`${path} is not a file: pass --config <file> to name the file to change.`);
  const target = realpathSync(path);
  let bytes: Buffer;
  try {
    bytes = readFileSync(target);
  } catch (error) {
    throw new CannotRun(`cannot read ${path} (${reason(error)}): make it readable, or pass --config <file>.`);
  }
  try {
    return { path, target, text: UTF8.decode(bytes), stats };
  } catch {
    throw new CannotRun(
      `${path} is not UTF-8 text, which a client reads its configuration as: save it as UTF-8 in your editor, then install again.`,
    );
  }
}

/**
 * UTF-8 as JSON (RFC 8259 §8.1) and TOML files are, refusing any other bytes: read leniently, each
 * would become U+FFFD, and be written back so (a Latin-1 "é", UTF-16 from PowerShell's `>`).
 * The byte order mark is kept, for the formats to set aside and write back.
 */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Replaces the file's text with `text`, backing the old one up first when there was one; answers
 * the backup's path. On any failure the file is left as it was, and nothing else is left behind.
 */
export function replaceConfig(file: ConfigFile, text: string): string | undefined {
  const { path, target, stats } = file;
  // Root writes through any mode: a file its owner made read-only is left alone all the same.
  if (stats && (!(stats.mode & 0o200) || !writable(target))) {
    throw new CannotRun(
      `${path} is read-only, so picomcp leaves it as it is: make it writable (chmod u+w ${path}) and install again, ` +
        "or add the entry yourself (--dry-run prints the file it would write).",
    );
  }
  const temporary = join(dirname(target), `.${basename(target)}.picomcp-${process.pid}.tmp`);
  let created = false;
  let backup: string | undefined;
  try {
    writeNew(temporary, text, stats);
    created = true;
    if (stats) {
      const name = `${path}.${new Date().toISOString().replace(/[:.]/g, "-")}.bak`;
      // Never over an older backup.
      copyFileSync(target, name, constants.COPYFILE_EXCL);
      backup = name;
    }
    renameSync(temporary, target);
    return backup;
  } catch (error) {
    if (created) unlinkSync(temporary);
    if (backup) unlinkSync(backup);
    throw new CannotRun(`cannot write ${path} (${reason(error)}): it is left as it was.`);
  }
}

/** Writes `text` to a file that must not exist yet (no link followed), flushed, with the mode and owner of `like`. */
function writeNew(path: string, text: string, like: Stats | undefined): void {
  const fd = openSync(path, "wx", NEW_FILE_MODE);
  try {
    // The mode given to open is narrowed by the umask: set as it is.
    fchmodSync(fd, like ? like.mode & 0o7777 : NEW_FILE_MODE);
    // Only root can give a file away: `sudo picomcp install` leaves the file its owner's.
    if (like && process.getuid?.() === 0) fchownSync(fd, like.uid, like.gid);
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(path);
    throw error;
  }
  closeSync(fd);
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
