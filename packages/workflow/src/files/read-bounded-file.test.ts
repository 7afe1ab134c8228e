import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { safeReadBoundedFile } from "./read-bounded-file.ts";
import { readBoundedStream } from "./read-bounded-stream.ts";

let directory: { path: string; remove: () => void };
beforeEach(() => {
  const path = realpathSync(mkdtempSync(join(tmpdir(), "uwf-workflow-test-")));
  directory = { path, remove: () => rmSync(path, { recursive: true, force: true }) };
});
afterEach(() => directory.remove());

const file = (name: string, text: string) => {
  const path = join(directory.path, name);
  writeFileSync(path, text);
  return path;
};

/** A named pipe that `writer` (a shell command given the pipe as $1) fills. */
function pipeFrom(writer: string): string {
  const path = join(directory.path, "pipe");
  expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);
  Bun.spawn(["sh", "-c", writer, "sh", path], { stdout: "ignore", stderr: "ignore" });
  return path;
}

describe("safeReadBoundedFile", () => {
  it("reads a regular file, and a link to one, up to the limit", () => {
    const path = file("a.txt", "héllo");
    symlinkSync(path, join(directory.path, "link"));
    expect(safeReadBoundedFile(path, { maxBytes: 6 })).toEqual({ success: true, value: "héllo" });
    expect(safeReadBoundedFile(join(directory.path, "link"), { maxBytes: 6 })).toEqual({
      success: true,
      value: "héllo",
    });
  });

  it("refuses a file over the limit unread, naming its size and the limit", () => {
    expect(safeReadBoundedFile(file("big.txt", "x".repeat(2049)), { maxBytes: 2048 })).toEqual({
      success: false,
      reason: "too-large",
      problem: "is 2049 bytes, over the 2048 bytes limit",
    });
    expect(safeReadBoundedFile(file("mib.txt", "x".repeat(11)), { maxBytes: 1024 * 1024 }).success).toBe(true);
  });

  it("refuses /dev/zero, and a link to it, without reading it", () => {
    symlinkSync("/dev/zero", join(directory.path, "config.yaml"));
    for (const path of ["/dev/zero", join(directory.path, "config.yaml")]) {
      expect(safeReadBoundedFile(path, { maxBytes: 1024, allowPipe: true })).toEqual({
        success: false,
        reason: "not-regular",
        problem: "not a regular file",
      });
    }
  });

  it("names a missing file and a folder", () => {
    mkdirSync(join(directory.path, "folder"));
    expect(safeReadBoundedFile(join(directory.path, "none"), { maxBytes: 10 })).toMatchObject({
      reason: "missing",
      problem: "no such file",
    });
    expect(safeReadBoundedFile(join(directory.path, "folder"), { maxBytes: 10 })).toMatchObject({
      reason: "directory",
      problem: "is a directory, not a file",
    });
  });

  it("refuses a pipe unless allowed, then reads it up to the limit and no further", () => {
    const refused = join(directory.path, "fifo");
    expect(Bun.spawnSync(["mkfifo", refused]).exitCode).toBe(0);
    expect(safeReadBoundedFile(refused, { maxBytes: 10 })).toMatchObject({ reason: "not-regular" });
    expect(safeReadBoundedFile(pipeFrom('printf small > "$1"'), { maxBytes: 10, allowPipe: true })).toEqual({
      success: true,
      value: "small",
    });
  });

  it("stops reading an endless pipe once it is over the limit", () => {
    const endless = pipeFrom('exec cat /dev/zero > "$1"');
    expect(safeReadBoundedFile(endless, { maxBytes: 100_000, allowPipe: true })).toEqual({
      success: false,
      reason: "too-large",
      problem: "is over the 100000 bytes limit",
    });
  });
});

describe("readBoundedStream", () => {
  it("reads a stream up to the limit", async () => {
    expect(await readBoundedStream(new Response("abc").body as ReadableStream<Uint8Array>, 3)).toEqual({
      success: true,
      value: "abc",
    });
  });

  it("cancels an endless stream once it is over the limit", async () => {
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(4096)),
      cancel: () => {
        cancelled = true;
      },
    });
    expect(await readBoundedStream(endless, 1024 * 1024)).toMatchObject({
      success: false,
      reason: "too-large",
      problem: "is over the 1 MiB limit",
    });
    expect(cancelled).toBe(true);
  });
});
