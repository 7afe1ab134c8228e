import { existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

/**
 * Where the tests make their temp folders: the system's temp folder, unless it, or a folder above it,
 * holds a `.uwf/` (uwf takes the nearest `.uwf/` above its working directory as its home, so a stray
 * `/tmp/.uwf` would become the home of every test that names none); then another temp folder without one.
 */
export const TEST_TEMP_ROOT: string = findTestTempRoot([tmpdir(), "/tmp", "/var/tmp", "/dev/shm"]);

export function findTestTempRoot(candidates: readonly string[]): string {
  for (const candidate of candidates) {
    if (existsSync(candidate) && !hasUwfHomeAbove(candidate)) return candidate;
  }
  throw new Error(
    `every temp folder (${candidates.join(", ")}) has a .uwf folder in it or above it: remove that, or set TMPDIR to a folder without one`,
  );
}

/** Whether `directory` or a folder above it holds a `.uwf/`, as uwf's own home lookup would find it. */
export function hasUwfHomeAbove(directory: string): boolean {
  for (let current = resolve(directory); ; current = dirname(current)) {
    const candidate = join(current, ".uwf");
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return true;
    if (dirname(current) === current) return false;
  }
}
