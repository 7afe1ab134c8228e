import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LINEAR } from "./temp-home.ts";

/**
 * Files no client of the home may read, in a new folder `folder`: a valid workflow whose description
 * holds `secret` (read, it would start, and its description would come back) and a YAML file of secrets.
 */
export function writeFilesOutsideHome(folder: string, secret: string): { workflow: string; secrets: string } {
  mkdirSync(folder);
  const workflow = join(folder, "private-flow.yaml");
  writeFileSync(
    workflow,
    readFileSync(LINEAR, "utf8")
      .replace("name: linear", "name: private-flow")
      .replace("Plan, then do", `Holds ${secret}`),
  );
  const secrets = join(folder, "secrets.yaml");
  writeFileSync(secrets, `database:\n  password: ${secret}\n  host: db.internal\n`);
  return { workflow, secrets };
}
