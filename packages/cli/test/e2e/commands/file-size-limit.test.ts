import { describe, expect, it } from "bun:test";
import { errorResultSchema } from "@uwf/protocol";
import { LINEAR, useTempHome } from "../../helpers/temp-home.ts";

/** An agent whose reply (a valid planner reply with a 2 MB body) is larger than the file-size limit below. */
const CONFIG = [
  "agents:",
  "  large:",
  "    command: sh",
  `    args: ["-c", "cat >/dev/null; printf -- '---\\\\nplan: big\\\\n---\\\\n'; head -c 2000000 /dev/zero | tr '\\\\0' x"]`,
].join("\n");

const temp = useTempHome({ setUp: (home) => home.writeConfig(CONFIG) });

/** 1,000 blocks of 512 bytes (sh's unit for `ulimit -f`), or of 1,024: either way under the 2 MB body, over refs.db's needs. */
const LIMIT = "ulimit -f 1000";

describe("a file-size limit (ulimit -f) met by a step's write", () => {
  it("is a full disk: one line naming the file, exit 1 (no-space), the thread as it was; the step goes through without the limit", async () => {
    const thread = await temp.startThread(LINEAR);
    const before = await temp.showThread(thread);

    const step = await temp.shell(`${LIMIT}; exec $UWF step ${thread} --agent large`);
    expect(step.exitCode).toBe(1);
    // Which write meets the limit first depends on when the live output (2 MB printed, 1 MiB kept in
    // refs.db) was flushed: the step's node in the object store, or refs.db. Either is one line naming the file.
    expect(step.stderr).toMatch(
      /^uwf: (cannot write \S+\/objects\/[0-9A-Z]{2}\/[0-9A-Z]{11}\.json: file too large for this process's file-size limit \(ulimit -f\) \(EFBIG\)|the ref store \S+\/refs\.db cannot be written: disk I\/O error \(SQLITE_IOERR\w*\); is the disk full or failing\?)\n$/,
    );
    expect(await temp.showThread(thread)).toEqual(before);

    const json = await temp.shell(`${LIMIT}; exec $UWF step ${thread} --agent large --json`);
    expect(json.exitCode).toBe(1);
    const { error } = errorResultSchema.parse(JSON.parse(json.stderr));
    if (error.code === "no-space") expect(error).toMatchObject({ data: { systemCode: "EFBIG" } });
    else expect(error.code).toBe("ref-store-unavailable");
    expect(await temp.showThread(thread)).toEqual(before);

    const unlimited = await temp.uwf(["step", thread, "--agent", "large"]);
    expect(unlimited.exitCode).toBe(0);
    expect((await temp.showThread(thread)).stepCount).toBe(1);
  }, 60_000);
});
