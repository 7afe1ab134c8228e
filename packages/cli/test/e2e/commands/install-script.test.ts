import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// `npm run install-uwf` builds uwf, then runs this script to put the binary on the PATH.
const INSTALL_SCRIPT = resolve(import.meta.dir, "../../../scripts/install.ts");
const BUILD_SCRIPT = resolve(import.meta.dir, "../../../scripts/build.ts");

let root: string;
let binary: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "uwf-install-"));
  binary = join(root, "build", "uwf");
  const build = Bun.spawnSync([process.execPath, BUILD_SCRIPT, "--outfile", binary], { stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`the build failed: ${build.stderr.toString()}`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function install(args: string[], env: Record<string, string>) {
  const result = Bun.spawnSync([process.execPath, INSTALL_SCRIPT, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { exitCode: result.exitCode, stderr: result.stderr.toString() };
}

/** `uwf --version` found on a PATH of only `bin`, from a folder outside the repository. */
function versionFrom(bin: string): string {
  const result = Bun.spawnSync(["uwf", "--version"], { cwd: root, env: { PATH: bin, HOME: root }, stdout: "pipe" });
  expect(result.exitCode).toBe(0);
  return result.stdout.toString().trim();
}

describe("the install script", () => {
  it("installs the compiled uwf to ~/.local/bin by default, runnable from anywhere once on the PATH", () => {
    const home = join(root, "home");
    const installed = install(["--from", binary], { HOME: home });
    const bin = join(home, ".local", "bin");
    expect(installed.exitCode).toBe(0);
    expect(installed.stderr).toContain(`installed ${join(bin, "uwf")}\n`);
    expect(installed.stderr).toContain(`${bin} is not on your PATH: add  export PATH="${bin}:$PATH"`);
    expect(statSync(join(bin, "uwf")).mode & 0o111).toBe(0o111);
    expect(versionFrom(bin)).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("installs to $PREFIX/bin, or --prefix, replacing an older copy, and says nothing of a PATH that has it", () => {
    const prefix = join(root, "prefix");
    const bin = join(prefix, "bin");
    expect(install(["--from", binary], { PREFIX: prefix, HOME: root }).exitCode).toBe(0);
    const again = install(["--from", binary, "--prefix", join(root, "other")], {
      PREFIX: prefix,
      HOME: root,
      PATH: `${join(root, "other", "bin")}:${process.env.PATH ?? ""}`,
    });
    expect(again).toEqual({ exitCode: 0, stderr: `installed ${join(root, "other", "bin", "uwf")}\n` });
    expect(install(["--from", binary], { PREFIX: prefix, HOME: root }).exitCode).toBe(0);
    expect(versionFrom(bin)).toBe(versionFrom(join(root, "other", "bin")));
  });

  it("fails with the command to run when there is no build", () => {
    const missing = install(["--from", join(root, "nowhere", "uwf")], { HOME: join(root, "home2") });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("run `bun run build` first");
  });
});
