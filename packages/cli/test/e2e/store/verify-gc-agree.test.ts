import { describe, expect, it } from "bun:test";
import { readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, useTempHome } from "../../helpers/temp-home.ts";

const FAN_OUT = join(FIXTURES, "workflows/fan-out-review.yaml");
const AGENT = `scripted:${join(FIXTURES, "workflows/fan-out-review.scenario.yaml")}`;

const temp = useTempHome();

/** Every object written two hours ago, so gc's grace spares none for being young. */
function ageObjects(): void {
  const objects = join(temp.home, "objects");
  const past = new Date(Date.now() - 2 * 3_600_000);
  for (const folder of readdirSync(objects))
    for (const file of readdirSync(join(objects, folder))) utimesSync(join(objects, folder, file), past, past);
}

async function verifyAndGc(): Promise<{ abandoned: string[]; deleted: string[] }> {
  const verify = await temp.uwf(["cas", "verify", "--json"]);
  expect(verify.exitCode).toBe(0);
  ageObjects();
  const gc = await temp.uwf(["cas", "gc", "--dry-run", "--grace", "0", "--json"]);
  expect(gc.exitCode).toBe(0);
  return {
    abandoned: verify.json<{ abandoned: { address: string }[] }>().abandoned.map((entry) => entry.address),
    deleted: gc.json<{ deleted: string[] }>().deleted,
  };
}

async function fannedOut(): Promise<{ parent: string; branches: string[] }> {
  const run = await temp.uwf(["run", FAN_OUT, "-p", "Ship it", "--agent", AGENT, "--json"]);
  expect(run.exitCode).toBe(0);
  const threads = (await temp.uwf(["list", "--json"])).json<{ threads: { id: string; branchOf?: unknown }[] }>()
    .threads;
  return {
    parent: threads.find((thread) => thread.branchOf === undefined)?.id ?? "",
    branches: threads.filter((thread) => thread.branchOf !== undefined).map((thread) => thread.id),
  };
}

describe("uwf cas verify and uwf cas gc agree on what is collectable", () => {
  it("calls a deleted branch's steps kept, as gc keeps them (its parent's join reaches them)", async () => {
    const { branches } = await fannedOut();
    const deleted = await temp.uwf(["delete", branches[0] ?? "", "--yes"]);
    expect(deleted.exitCode).toBe(0);
    const verifyText = await temp.uwf(["cas", "verify"]);
    expect(verifyText.stdout).not.toContain("went on without or deleted");
    expect(await verifyAndGc()).toEqual({ abandoned: [], deleted: [] });
  }, 60_000);

  it("calls collectable only what gc deletes once the whole family is deleted", async () => {
    const { parent, branches } = await fannedOut();
    expect((await temp.uwf(["delete", parent, ...branches, "--yes"])).exitCode).toBe(0);
    const { abandoned, deleted } = await verifyAndGc();
    expect(deleted.length).toBeGreaterThan(0);
    for (const address of abandoned) expect(deleted).toContain(address);
  }, 60_000);
});
