import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addRules, type ToolPermissionContext, updatePermissionContext } from "../../tool/context.ts";
import { buildPermissionContext } from "../../tool/createContext.ts";
import { type CommandLauncher, startShellCommand } from "../run/exec.ts";
import {
  createSandboxLauncher,
  type SandboxCallOptions,
  sandboxPolicy,
  sandboxUnavailableReason,
  stopSandbox,
} from "./sandbox.ts";

/** Why sandbox tests cannot run here (no bubblewrap, or bubblewrap cannot make namespaces), or undefined. */
function skipReason(): string | undefined {
  const missing = sandboxUnavailableReason();
  if (missing) return missing;
  try {
    execFileSync(
      "bwrap",
      ["--ro-bind", "/", "/", "--unshare-net", "--dev", "/dev", "--proc", "/proc", "true"],
      {
        stdio: "pipe",
      },
    );
    return undefined;
  } catch (error) {
    return `bwrap cannot run here: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const reason = skipReason();
if (reason) console.warn(`[sandbox tests skipped] ${reason}`);

function commandExists(name: string): boolean {
  try {
    execFileSync("bash", ["-c", `command -v ${name}`], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}
const hasCurl = commandExists("curl");
if (!reason && !hasCurl) console.warn("[sandbox proxy test skipped] curl is not installed");

let base: string;
let root: string;
let outside: string;
let server: Server;
let port: number;
let connections = 0;

function sandboxedContext(
  extra?: (context: ToolPermissionContext) => ToolPermissionContext,
): ToolPermissionContext {
  const context = updatePermissionContext(buildPermissionContext({ cwd: root }), {
    sandbox: { enabled: true, autoAllowBashIfSandboxed: true },
  });
  return extra ? extra(context) : context;
}

/** A call in the project root, with `.git` held read-only whole (a line that is not only git). */
function callIn(): SandboxCallOptions {
  return { cwd: root, profile: "strict" };
}

async function run(command: string, launcher: CommandLauncher | undefined) {
  const outputPath = join(base, `out-${Math.random().toString(36).slice(2)}.log`);
  const shell = await startShellCommand({ command, cwd: root, outputPath, timeoutMs: 20_000, launcher });
  const exit = await shell.done;
  return { exit, output: await readFile(outputPath, "utf8") };
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "keel-sandbox-")));
  root = join(base, "project");
  await mkdir(root);
  // Outside the working dirs and outside temp: the sandbox allows temp, so the outside folder lives elsewhere.
  const outsideParent = existsSync("/var/tmp") ? "/var/tmp" : homedir();
  outside = await realpath(await mkdtemp(join(outsideParent, "keel-sandbox-outside-")));
  server = createServer((_request, response) => response.end("reached\n"));
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await stopSandbox();
  await new Promise((resolve) => server.close(resolve));
  await rm(base, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe("sandboxPolicy", () => {
  it("allows writes to the working dirs and temp, and network only to WebFetch-allowed domains", () => {
    const context = addRules(sandboxedContext(), "allow", "project", [
      "WebFetch(domain:example.com)",
      "Bash(ls:*)",
    ]);
    const policy = sandboxPolicy(addRules(context, "deny", "project", ["WebFetch(domain:evil.example)"]));
    expect(policy.allowWrite).toContain(root);
    expect(policy.allowWrite).toContain(tmpdir());
    expect(policy.allowWrite).not.toContain(outside);
    expect(policy.denyWrite).not.toContain(join(root, ".keel"));
    // The confinement's protected paths (confinementLayout.ts) join the deny list.
    expect(sandboxPolicy(context, [join(root, ".keel")]).denyWrite).toContain(join(root, ".keel"));
    expect(policy.allowedDomains).toEqual(["example.com"]);
    expect(policy.deniedDomains).toEqual(["evil.example"]);
  });
});

describe.skipIf(reason !== undefined)("sandboxed commands", () => {
  it("can write inside the working directories", async () => {
    const launcher = await createSandboxLauncher(sandboxedContext(), callIn());
    const { exit, output } = await run("echo inside > inside.txt && cat inside.txt", launcher);
    expect(output).toBe("inside\n");
    expect(exit.exitCode).toBe(0);
    expect(await readFile(join(root, "inside.txt"), "utf8")).toBe("inside\n");
  });

  it("cannot write outside the working directories (and can without the sandbox)", async () => {
    const target = join(outside, "escape.txt");
    const launcher = await createSandboxLauncher(sandboxedContext(), callIn());
    const sandboxed = await run(`echo escaped > ${target}`, launcher);
    expect(sandboxed.exit.exitCode).not.toBe(0);
    expect(sandboxed.output).toMatch(/Read-only file system|Permission denied/);
    expect(existsSync(target)).toBe(false);
    // Control: the same command unsandboxed does write, so the test can tell the difference.
    const plain = await run(`echo escaped > ${target}`, undefined);
    expect(plain.exit.exitCode).toBe(0);
    expect(existsSync(target)).toBe(true);
    await rm(target);
  });

  it("applies Read and Edit deny rules: a denied file cannot be read nor changed", async () => {
    await writeFile(join(root, ".env"), "SECRET=1\n");
    await mkdir(join(root, "locked"), { recursive: true });
    await writeFile(join(root, "locked", "a.txt"), "a\n");
    await writeFile(join(root, "notes.pem"), "key\n");
    const context = addRules(sandboxedContext(), "deny", "project", [
      "Read(./.env)",
      "Read(*.pem)",
      "Edit(./locked/**)",
    ]);
    const policy = sandboxPolicy(context);
    expect(policy.denyRead).toContain(join(root, ".env"));
    expect(policy.denyWrite).toContain(join(root, "locked"));
    const launcher = await createSandboxLauncher(context, callIn());
    const read = await run("cat .env; cat notes.pem; echo done", launcher);
    expect(read.output).not.toContain("SECRET=1");
    expect(read.output).not.toContain("key");
    expect(read.output).toContain("done");
    const write = await run("echo x >> locked/a.txt", launcher);
    expect(write.exit.exitCode).not.toBe(0);
    expect(await readFile(join(root, "locked", "a.txt"), "utf8")).toBe("a\n");
    // Control: the plain shell reads it, so the test can tell the difference.
    expect((await run("cat .env", undefined)).output).toContain("SECRET=1");
  });

  it("cannot change the session's own settings inside the project", async () => {
    const launcher = await createSandboxLauncher(sandboxedContext(), callIn());
    const { exit } = await run("mkdir -p .keel && echo '{}' > .keel/settings.json", launcher);
    expect(exit.exitCode).not.toBe(0);
    expect(existsSync(join(root, ".keel", "settings.json"))).toBe(false);
  });

  it("cannot reach a server on 127.0.0.1 outside the sandbox (and can without it)", async () => {
    const probe = `if exec 3<>/dev/tcp/127.0.0.1/${port}; then echo connected; else echo blocked; fi`;
    const launcher = await createSandboxLauncher(sandboxedContext(), callIn());
    const before = connections;
    const sandboxed = await run(probe, launcher);
    expect(sandboxed.output).toContain("blocked");
    expect(connections).toBe(before);
    const plain = await run(probe, undefined);
    expect(plain.output).toContain("connected");
    expect(connections).toBe(before + 1);
  });

  it("starts a command once the sandbox's proxy listens (HTTP 3128, SOCKS 1080)", async () => {
    // Listening sockets of the sandbox's own network, read by its first line with builtins only (no time for socat).
    // Eight at once: socat is slowest to start on a busy machine, which is when the wait matters.
    const runs = await Promise.all(
      Array.from({ length: 8 }, async () =>
        run(
          'while read -r line; do echo "$line"; done </proc/net/tcp',
          await createSandboxLauncher(sandboxedContext(), callIn()),
        ),
      ),
    );
    for (const { output } of runs) {
      const listening = output
        .split("\n")
        .map((line) => line.trim().split(/\s+/))
        .filter((fields) => fields[3] === "0A")
        .map((fields) => fields[1]?.split(":")[1]);
      expect(listening, output).toEqual(expect.arrayContaining(["0C38", "0438"]));
    }
  });

  it.skipIf(!hasCurl)(
    "reaches an allowed host through the sandbox's proxy, and only an allowed one",
    async () => {
      const viaProxy = `curl -sS -m 5 --noproxy '' http://127.0.0.1:${port}/`;
      const denied = await run(viaProxy, await createSandboxLauncher(sandboxedContext(), callIn()));
      expect(denied.output).not.toContain("reached");
      const allowed = await run(
        viaProxy,
        await createSandboxLauncher(
          sandboxedContext((context) =>
            addRules(context, "allow", "project", ["WebFetch(domain:127.0.0.1)"]),
          ),
          callIn(),
        ),
      );
      expect(allowed.output).toBe("reached\n");
    },
  );

  it("kills a sandboxed command's processes on timeout", async () => {
    const launcher = await createSandboxLauncher(sandboxedContext(), callIn());
    const outputPath = join(base, "timeout.log");
    const shell = await startShellCommand({
      command: "sleep 73.25 & echo started; wait",
      cwd: root,
      outputPath,
      timeoutMs: 500,
      launcher,
    });
    const exit = await shell.done;
    expect(exit.interrupted).toBe("timeout");
    const survivors = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.trim() === "sleep 73.25");
    expect(survivors).toEqual([]);
  });

  it("runs the script as `bash -c` would, with nothing of how it was carried left in its environment", async () => {
    const launcher = await createSandboxLauncher(sandboxedContext(), callIn());
    const script = [
      `printf '%s|' "$0" "it's" '!x' "$((6 * 7))" "\${KEEL_SANDBOX_SCRIPT-unset}"`,
      "echo",
      String.raw`echo "two  spaces" '\' back`,
      "no_such_command_xyz",
      "exit 3",
    ].join("\n");
    const { exit, output } = await run(script, launcher);
    expect(output).toContain("|it's|!x|42|unset|\n");
    expect(output).toContain("two  spaces \\ back\n");
    expect(output).toMatch(/line 4: no_such_command_xyz: command not found/);
    expect(exit.exitCode).toBe(3);
  });

  it("denies a file a read-deny glob matches that appeared after the previous command", async () => {
    const context = addRules(sandboxedContext(), "deny", "project", ["Read(*.secret)"]);
    expect((await run("true", await createSandboxLauncher(context, callIn()))).exit.exitCode).toBe(0);
    await mkdir(join(root, "later"), { recursive: true });
    await writeFile(join(root, "later", "new.secret"), "HIDDEN-VALUE\n");
    const read = await run("cat later/new.secret; echo done", await createSandboxLauncher(context, callIn()));
    expect(read.output).not.toContain("HIDDEN-VALUE");
    expect(read.output).toContain("done");
  });

  it("protects a file the protected-file scan finds that appeared after the previous command", async () => {
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const launcher = () => createSandboxLauncher(sandboxedContext(), callIn());
      expect((await run("true", await launcher())).exit.exitCode).toBe(0);
      await mkdir(join(root, "nested"), { recursive: true });
      await writeFile(join(root, "nested", ".bashrc"), "# mine\n");
      const write = await run("echo evil >> nested/.bashrc", await launcher());
      expect(write.exit.exitCode).not.toBe(0);
      expect(await readFile(join(root, "nested", ".bashrc"), "utf8")).toBe("# mine\n");
    } finally {
      process.chdir(cwd);
    }
  });

  it("leaves no mount points in the project, also when commands run side by side", async () => {
    const before = readdirSync(root).sort();
    const [a, b] = await Promise.all([
      run("sleep 0.3; echo a", await createSandboxLauncher(sandboxedContext(), callIn())),
      run("echo b", await createSandboxLauncher(sandboxedContext(), callIn())),
    ]);
    expect([a.output, b.output]).toEqual(["a\n", "b\n"]);
    expect(readdirSync(root).sort()).toEqual(before);
    for (const name of [".keel", ".claude", ".mcp.json", ".gitmodules"])
      expect(existsSync(join(root, name))).toBe(false);
  });

  // Each a call of its own, as the Bash tool makes them: a launcher per command. One command's wrap may
  // read a mount point another's run left, and bind it: it stays until no command is under way.
  it("runs eight commands started at once, round after round, each with the mounts it was wrapped with", async () => {
    for (let round = 0; round < 3; round++) {
      const runs = await Promise.all(
        Array.from({ length: 8 }, async (_, index) =>
          run(`echo ${round}-${index}`, await createSandboxLauncher(sandboxedContext(), callIn())),
        ),
      );
      expect(runs.map(({ output }) => output)).toEqual(
        Array.from({ length: 8 }, (_, index) => `${round}-${index}\n`),
      );
    }
  });

  it("reports the final cwd from inside the sandbox", async () => {
    await mkdir(join(root, "sub"), { recursive: true });
    const launcher = await createSandboxLauncher(sandboxedContext(), callIn());
    const outputPath = join(base, "cwd.log");
    const shell = await startShellCommand({ command: "cd sub", cwd: root, outputPath, launcher });
    expect((await shell.done).finalCwd).toBe(join(root, "sub"));
  });
});
