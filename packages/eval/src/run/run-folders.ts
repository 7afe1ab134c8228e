import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A name made safe as one path segment: what is not a letter, digit, `.`, `_` or `-` becomes `_`. */
export function folderName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, "_");
  return safe === "" || safe === "." || safe === ".." ? `_${safe}` : safe;
}

/** 16 hex digits of the SHA-256 of a value's JSON: the folder of one definition. */
export function definitionHash(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}

/** The SHA-256 of a file's content, or null when it cannot be read (the run then fails on its own). */
export function fileHash(path: string): string | null {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex").slice(0, 16);
  } catch {
    return null;
  }
}

/**
 * The generation of a (case, variant) folder the runs use: the highest numbered one already there
 * (what an earlier run of the suite made), or 1; with `fresh`, one more than the highest.
 */
export function generationOf(folder: string, fresh: boolean): number {
  let highest = 0;
  try {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory() && /^[1-9][0-9]*$/.test(entry.name)) highest = Math.max(highest, Number(entry.name));
    }
  } catch {
    // No folder yet: generation 1.
  }
  return fresh ? highest + 1 : Math.max(highest, 1);
}

export function runFolder(base: string, ...segments: (string | number)[]): string {
  return join(base, ...segments.map(String));
}
