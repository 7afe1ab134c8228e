/**
 * The web API reads only what the store holds: `GET /api/workflows/:reference` names a workflow by a
 * registered name, an address, a stored thread or a file of the home's own `workflows/` folder, never
 * by a path, so no request reads (or learns of) the user's other files, whoever sends it and wherever
 * the server listens. And a `Host` header that is no host of the server's is refused, whatever it holds.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { workflowShowResultSchema } from "@uwf/protocol";
import { writeFilesOutsideHome } from "../../helpers/files-outside-home.ts";
import { createTempHome, LINEAR } from "../../helpers/temp-home.ts";
import { type RunningUi, startUi } from "../../helpers/ui-browser.ts";

const SECRET = "not-a-real-secret-4417-pelican";
const TOKEN = "a-test-token-of-the-hardening-tests";

/** One raw HTTP/1.1 GET to 127.0.0.1:port with the Host header given (fetch would set its own): status and body. */
function rawGet(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    });
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("error", reject);
    socket.on("end", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
  });
}

describe("uwf ui's API and the user's files", () => {
  const temp = createTempHome();
  /** Files a request must not read: a workflow outside the home, a secret-holding YAML, the passwd file, and worse. */
  const outside: string[] = [];
  let thread: string;
  let hash: string;
  const servers: RunningUi[] = [];

  beforeAll(async () => {
    const elsewhere = join(temp.work, "elsewhere");
    const { workflow, secrets } = writeFilesOutsideHome(elsewhere, SECRET);
    mkdirSync(join(elsewhere, "folder.yaml"));
    outside.push(
      workflow,
      secrets,
      "/etc/passwd",
      join(elsewhere, "missing.yaml"),
      join(elsewhere, "folder.yaml"),
      "../../../../../../etc/passwd",
      "elsewhere/secrets.yaml",
      `${temp.home}/../work/elsewhere/private-flow.yaml`,
    );
    // The home's own workflows/ folder: a project file is served; a link in it that leads out is not.
    mkdirSync(join(temp.home, "workflows"));
    copyFileSync(LINEAR, join(temp.home, "workflows", "linear.yaml"));
    writeFileSync(
      join(temp.home, "workflows", "project-only.yaml"),
      readFileSync(LINEAR, "utf8").replace("name: linear", "name: project-only"),
    );
    symlinkSync(workflow, join(temp.home, "workflows", "private-flow.yaml"));
    symlinkSync(secrets, join(temp.home, "workflows", "leak.yaml"));
    outside.push("private-flow", "leak", "../workflows/linear", "workflows/linear.yaml");
    thread = await temp.startThread(LINEAR, "Keep me");
    hash = (await temp.showThread(thread)).workflowAddress;
    servers.push(await startUi(temp, ["--token", TOKEN]));
    servers.push(await startUi(temp, ["--host", "0.0.0.0", "--read-only"]));
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    temp.cleanup();
  });

  /** The server's port, reached on 127.0.0.1 whatever it listens on. */
  const base = (server: RunningUi) => `http://127.0.0.1:${new URL(server.url).port}`;

  const cases: { name: string; server: number; headers: Record<string, string> }[] = [
    { name: "loopback, no token", server: 0, headers: {} },
    { name: "loopback, with the token", server: 0, headers: { authorization: `Bearer ${TOKEN}` } },
    { name: "--host 0.0.0.0 --read-only", server: 1, headers: {} },
  ];

  for (const { name, server, headers } of cases) {
    it(`answers every path the same "no workflow", quoting no file (${name})`, async () => {
      const origin = base(servers[server] as RunningUi);
      for (const path of outside) {
        const answer = await fetch(`${origin}/api/workflows/${encodeURIComponent(path)}`, { headers });
        const body = await answer.text();
        expect({ path, status: answer.status }).toEqual({ path, status: 404 });
        expect(JSON.parse(body)).toEqual({
          error: {
            code: "workflow-not-found",
            message: `no workflow ${JSON.stringify(path)}: not a registered name, a workflow address or a thread id (files are not read here) (see \`uwf workflow list\`)`,
            data: { workflow: path, stored: true },
          },
          exitCode: 1,
        });
        expect(body).not.toContain(SECRET);
        expect(body).not.toContain("root:");
      }
    });

    it(`serves a registered name, a hash, a thread's workflow and a project file (${name})`, async () => {
      const origin = base(servers[server] as RunningUi);
      for (const reference of ["linear", hash, thread, thread.toLowerCase()]) {
        const answer = await fetch(`${origin}/api/workflows/${encodeURIComponent(reference)}`, { headers });
        expect({ reference, status: answer.status }).toEqual({ reference, status: 200 });
        expect(workflowShowResultSchema.parse(await answer.json())).toMatchObject({
          hash,
          workflow: { name: "linear" },
        });
      }
      const project = await fetch(`${origin}/api/workflows/project-only`, { headers });
      expect(project.status).toBe(200);
      expect(await project.json()).toMatchObject({ workflow: { name: "project-only" } });
    });
  }

  it("changes nothing in the store when it shows a project file", async () => {
    const before = (await temp.uwf(["workflow", "list", "--json"])).json();
    const answer = await fetch(`${base(servers[0] as RunningUi)}/api/workflows/project-only`);
    expect(answer.status).toBe(200);
    expect((await temp.uwf(["workflow", "list", "--json"])).json()).toEqual(before);
  });

  it("refuses a Host header holding @ or # as any foreign host (403 forbidden-host), on each server", async () => {
    for (const server of servers) {
      const port = Number(new URL(server.url).port);
      for (const host of [
        `127.0.0.1:${port}@evil.example`,
        `127.0.0.1:${port}#evil`,
        `evil.example#@127.0.0.1:${port}`,
      ]) {
        const answer = await rawGet(port, "/api/threads", host);
        expect({ host, status: answer.status }).toEqual({ host, status: 403 });
        expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "forbidden-host", data: { host } } });
      }
      // The same request with the server's own host is answered.
      expect((await rawGet(port, "/api/threads", `127.0.0.1:${port}`)).status).toBe(200);
    }
  });
});
