// Test support for remote agents: a bare repository standing for the shared remote, a parent checkout
// of it, and `keel worker` processes each with its own folder, HOME and managed settings, standing for
// machines of their own. Everything lives in one temp folder that `cleanup()` removes.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_KEY } from "../../agent/testing/harness.ts";
import { ENTRY } from "../../cli/testing/keelProcess.ts";

export interface RemoteWorld {
  root: string;
  /** The bare repository: the remote both sides reach. */
  remote: string;
  parent: { project: string; home: string; env: NodeJS.ProcessEnv };
  cleanup(): void;
}

const GIT_IDENTITY = "[user]\n\tname = Keel Test\n\temail = keel-test@example.invalid\n";

export function git(args: string[], cwd: string): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "Keel Test",
      GIT_AUTHOR_EMAIL: "keel-test@example.invalid",
      GIT_COMMITTER_NAME: "Keel Test",
      GIT_COMMITTER_EMAIL: "keel-test@example.invalid",
    },
  });
}

/** A home folder with a git identity (commits need one) and nothing else. */
export function makeHome(path: string): string {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, ".gitconfig"), GIT_IDENTITY);
  return path;
}

export function remoteWorld(): RemoteWorld {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "keel-remote-")));
  const remote = join(root, "remote.git");
  git(["init", "--quiet", "--bare", "--initial-branch=main", remote], root);
  const seed = join(root, "seed");
  mkdirSync(seed);
  git(["init", "--quiet", "--initial-branch=main"], seed);
  writeFileSync(join(seed, "README.md"), "# Shared project\n");
  git(["add", "README.md"], seed);
  git(["commit", "--quiet", "-m", "Initial commit"], seed);
  git(["push", "--quiet", remote, "main"], seed);
  rmSync(seed, { recursive: true, force: true });
  const project = join(root, "parent", "project");
  mkdirSync(join(root, "parent"), { recursive: true });
  git(["clone", "--quiet", remote, project], root);
  const home = makeHome(join(root, "parent", "home"));
  return {
    root,
    remote,
    parent: {
      project,
      home,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        KEEL_HOME: home,
        KEEL_DECISION_SERVER: "off",
        KEEL_MANAGED_SETTINGS: join(root, "parent", "no-managed-settings.json"),
        ANTHROPIC_API_KEY: TEST_KEY,
        GIT_CONFIG_NOSYSTEM: "1",
      },
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface WorkerProcess {
  name: string;
  dir: string;
  home: string;
  child: ChildProcess;
  /** Everything it printed. */
  output(): string;
  /** Resolves once it takes jobs. */
  ready: Promise<void>;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export interface WorkerSpec {
  name: string;
  queueUrl: string;
  queueName: string;
  modelUrl: string;
  /** The machine's managed settings. */
  managed?: Record<string, unknown>;
  lockSeconds?: number;
}

/** `keel worker` as a child process in `<root>/<name>/` with its own HOME, folder and managed settings. */
export function startWorkerProcess(root: string, spec: WorkerSpec): WorkerProcess {
  const base = join(root, spec.name);
  const home = makeHome(join(base, "home"));
  const dir = join(base, "worker");
  const managed = join(base, "managed-settings.json");
  writeFileSync(managed, JSON.stringify(spec.managed ?? {}));
  const child = spawn(
    process.execPath,
    [
      ENTRY,
      "worker",
      "--queue",
      spec.queueUrl,
      "--queue-name",
      spec.queueName,
      "--name",
      spec.name,
      "--dir",
      dir,
      "--lock-seconds",
      String(spec.lockSeconds ?? 5),
      "--question-timeout",
      "60",
    ],
    {
      cwd: base,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        KEEL_HOME: home,
        KEEL_DECISION_SERVER: "off",
        KEEL_MANAGED_SETTINGS: managed,
        KEEL_PROVIDER: "anthropic",
        KEEL_BASE_URL: spec.modelUrl,
        ANTHROPIC_API_KEY: TEST_KEY,
        GIT_CONFIG_NOSYSTEM: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("taking agent jobs")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.once("exit", (code) => reject(new Error(`worker ${spec.name} exited (${code}):\n${output}`)));
  });
  ready.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    name: spec.name,
    dir,
    home,
    child,
    output: () => output,
    ready,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
