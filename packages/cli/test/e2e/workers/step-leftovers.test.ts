import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "@uwf/cas";
import { stepResultSchema } from "@uwf/protocol";
import { createTempHome, fixtureAgentsConfig, LINEAR, type TempHome } from "../../helpers/temp-home.ts";

let temp: TempHome;
let pidFile: string;
beforeEach(() => {
  temp = createTempHome();
  pidFile = join(temp.work, "agent.pid");
  temp.writeConfig(fixtureAgentsConfig(["daemonising"]).join("\n"));
});
afterEach(() => {
  try {
    process.kill(Number(readFileSync(`${pidFile}.daemon`, "utf8")), "SIGKILL");
  } catch {}
  temp.cleanup();
});

describe("what a step's agent started", () => {
  it.if(process.platform === "linux")(
    "does not outlive the step, even a daemon that left the agent's session and output (setsid, double fork)",
    async () => {
      const thread = await temp.startThread(LINEAR);
      const stepped = await temp.uwf(["step", thread, "--agent", "daemonising", "--json"], {
        env: { PID_FILE: pidFile },
      });
      expect(stepped.stderr).toBe("");
      expect(stepped.exitCode).toBe(0);
      expect(stepResultSchema.parse(stepped.json()).steps.map((step) => step.role)).toEqual(["planner"]);
      const daemon = Number(readFileSync(`${pidFile}.daemon`, "utf8"));
      expect(daemon).toBeGreaterThan(1);
      // Gone by the time uwf exited: stopped (not merely a zombie; a zombie counts as gone).
      expect(isProcessAlive(daemon)).toBe(false);
      expect((await temp.uwf(["cas", "verify"])).exitCode).toBe(0);
    },
  );
});
