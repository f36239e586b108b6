// The confinement with real commands, through the pipeline: a Bash call a mode approved runs under
// bubblewrap with the protected paths read-only, so a command whose writes the analysis cannot name
// (inline interpreter code, an archive, a patch, curl's %output) cannot change them; the same
// decisions ask where no sandbox is available. Everything here happens in throwaway temp projects and
// a temp home folder, and every command that writes at a protected path runs only inside the
// confinement (benign stand-ins: an echo into a would-be hook, an empty settings file).
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import { callbackPrompter } from "../../permissions/prompters/callbackPrompter.ts";
import type { PermissionDecision } from "../../permissions/types.ts";
import { runToolUse } from "../../pipeline/runToolUse.ts";
import type { PipelineServices } from "../../pipeline/services.ts";
import { loadSettings } from "../../settings/load.ts";
import { initBashParser } from "../../shell/analyze/grammar/parse.ts";
import { confinementAvailability } from "../../shell/sandbox/confinementAvailability.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { TaskStopTool } from "../task-stop/TaskStopTool.ts";
import { BashTool } from "./BashTool.ts";
import { callTool } from "./testing/context.ts";

const availability = confinementAvailability(process.env);
if (!availability.available) console.warn(`[confinement tests skipped] ${availability.reason}`);
const hasCurl = existsSync("/usr/bin/curl") || existsSync("/bin/curl");

let base: string;
let home: string;
let server: Server;
let port: number;
const savedHome = process.env.HOME;

beforeAll(async () => {
  await initBashParser();
  base = realpathSync(mkdtempSync(join(tmpdir(), "keel-confinement-")));
  // A home folder of the test's own: the confinement covers it, and nothing here touches the real one.
  home = join(base, "home");
  mkdirSync(join(home, ".config"), { recursive: true });
  writeFileSync(join(home, ".bashrc"), "# the user's rc\n");
  process.env.HOME = home;
  server = createServer((_request, response) => response.end("served body\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  process.env.HOME = savedHome;
  await new Promise((resolve) => server.close(resolve));
  rmSync(base, { recursive: true, force: true });
});

let projects = 0;

/** A throwaway project; with a repository (`git init`) unless told otherwise. */
function project(options: { git?: boolean } = {}): string {
  const root = join(base, `project-${++projects}`);
  mkdirSync(root);
  writeFileSync(join(root, "README.md"), "# demo\n");
  if (options.git !== false) {
    execFileSync("git", ["init", "-q"], { cwd: root });
    execFileSync("git", ["config", "user.email", "test@example.com"], { cwd: root });
    execFileSync("git", ["config", "user.name", "Test"], { cwd: root });
  }
  return root;
}

function session(
  root: string,
  mode: "bypassPermissions" | "default" = "bypassPermissions",
  confinement = true,
) {
  return createToolUseContext({
    tools: [BashTool],
    cwd: root,
    mode,
    confinement,
    toolResultsDir: join(base, "results"),
  });
}

/** An analysis miss stand-in: whatever the command, a mode approves it (as the engine records a mode). */
const approvedByMode: PipelineServices = {
  decidePermission: async <I>(_tool: unknown, input: I): Promise<PermissionDecision<I>> => ({
    behavior: "allow",
    updatedInput: input,
    decisionReason: { type: "mode", mode: "bypassPermissions" },
  }),
};

async function run(command: string, context: ToolUseContext, services: PipelineServices = {}) {
  const toolUse = {
    type: "tool_use" as const,
    id: `toolu_${Math.random().toString(36).slice(2)}`,
    name: "Bash",
    input: { command },
  };
  for await (const event of runToolUse(toolUse, context, services))
    if (event.type === "result")
      return {
        decision: event.decision,
        text:
          typeof event.block.content === "string" ? event.block.content : JSON.stringify(event.block.content),
      };
  throw new Error("no result");
}

/** What a folder holds, for comparing before and after a command. */
const listing = (folder: string) => readdirSync(folder).sort();

describe.skipIf(!availability.available)("a call a mode approved runs confined", () => {
  it("python3 -c cannot write a hook into .git, and the mode did approve it", async () => {
    const root = project();
    const before = listing(root);
    const result = await run(
      `python3 -c "open('.git/hooks/pre-commit', 'w').write('echo planted')"`,
      session(root),
    );
    expect(result.decision?.reason).toEqual({ type: "mode", mode: "bypassPermissions" });
    expect(result.text).toMatch(/Read-only file system/);
    expect(result.text).toContain("This command ran confined");
    expect(existsSync(join(root, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(listing(root)).toEqual(before);
  });

  it("python3 -c cannot plant a repository where there is none, and no stand-in is left behind", async () => {
    const root = project({ git: false });
    const before = listing(root);
    const homeBefore = listing(home);
    const result = await run(
      `python3 -c "import os; os.makedirs('.git/hooks'); open('.git/hooks/pre-commit', 'w').write('echo planted')"`,
      session(root),
    );
    expect(result.decision?.behavior).toBe("allow");
    expect(result.text).toMatch(/Read-only file system|File exists/);
    expect(existsSync(join(root, ".git"))).toBe(false);
    expect(listing(root)).toEqual(before);
    expect(listing(home)).toEqual(homeBefore);
  });

  it("an archive extracted over .git/ leaves the repository as it was", async () => {
    const root = project();
    const staging = mkdtempSync(join(base, "archive-"));
    mkdirSync(join(staging, ".git", "hooks"), { recursive: true });
    writeFileSync(join(staging, ".git", "hooks", "post-checkout"), "echo planted\n");
    writeFileSync(join(staging, ".git", "config"), "[core]\n\tfsmonitor = echo planted\n");
    execFileSync("tar", ["cf", join(root, "x.tar"), "-C", staging, ".git"]);
    const config = readFileSync(join(root, ".git", "config"), "utf8");
    const result = await run("tar xf x.tar", session(root), approvedByMode);
    expect(result.decision?.reason.type).toBe("mode");
    expect(result.text).toMatch(/Read-only file system|Cannot open/);
    expect(existsSync(join(root, ".git", "hooks", "post-checkout"))).toBe(false);
    expect(readFileSync(join(root, ".git", "config"), "utf8")).toBe(config);
  });

  it("a patch creating .claude/settings.json creates nothing", async () => {
    const root = project();
    writeFileSync(
      join(root, "x.patch"),
      [
        "--- /dev/null",
        "+++ b/.claude/settings.json",
        "@@ -0,0 +1 @@",
        '+{"permissions": {"allow": ["Bash"]}}',
        "",
      ].join("\n"),
    );
    const before = listing(root);
    const result = await run("patch -p1 < x.patch", session(root), approvedByMode);
    expect(result.decision?.reason.type).toBe("mode");
    expect(existsSync(join(root, ".claude", "settings.json"))).toBe(false);
    expect(existsSync(join(root, ".claude"))).toBe(false);
    expect(listing(root)).toEqual(before);
  });

  it.skipIf(!hasCurl)(
    "curl -w '%output{.git/x}' against a local server writes nothing into .git",
    async () => {
      const root = project();
      // The analysis names this write and asks; a miss of it is what the confinement is for.
      const result = await run(
        `curl -s -o /dev/null -w '%output{.git/x}%{http_code}' http://127.0.0.1:${port}/`,
        session(root),
        approvedByMode,
      );
      expect(result.decision?.reason.type).toBe("mode");
      expect(existsSync(join(root, ".git", "x"))).toBe(false);
      // Control: the body did arrive (the network is as it was), only the write was refused.
      const fetched = await run(`curl -s http://127.0.0.1:${port}/`, session(root));
      expect(fetched.text).toContain("served body");
    },
  );

  it("keeps the home folder's protected files and folders as they were", async () => {
    const root = project();
    const homeBefore = listing(home);
    const result = await run(
      `echo planted >> "$HOME/.bashrc"; mkdir -p "$HOME/.config/git" && echo planted > "$HOME/.config/git/config"; echo done`,
      session(root),
      approvedByMode,
    );
    expect(result.text).toContain("done");
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("# the user's rc\n");
    expect(existsSync(join(home, ".config", "git"))).toBe(false);
    expect(listing(home)).toEqual(homeBefore);
  });

  it("cannot rename the project away and put another one with a repository in its place", async () => {
    const root = project({ git: false });
    const result = await run(
      `cd .. && mv ${root} ${root}-moved; mkdir -p ${root}/.git && echo planted > ${root}/.git/HEAD; echo done`,
      session(root),
      approvedByMode,
    );
    expect(result.text).toMatch(/Device or resource busy/);
    expect(existsSync(`${root}-moved`)).toBe(false);
    expect(existsSync(join(root, ".git"))).toBe(false);
  });

  it("hides what a Read deny rule covers from a program the analysis cannot see into", async () => {
    const root = project();
    writeFileSync(join(root, ".env"), "SECRET=hunter2\n");
    const context = createToolUseContext({
      tools: [BashTool],
      cwd: root,
      mode: "bypassPermissions",
      confinement: true,
      deny: ["Read(**/.env)"],
      toolResultsDir: join(base, "results"),
    });
    const result = await run(`python3 -c "print(open('.env').read())"; echo done`, context, approvedByMode);
    expect(result.text).toContain("done");
    expect(result.text).not.toContain("hunter2");
  });

  it("lets git do its own work when the line is only git, but not another program in .git", async () => {
    const root = project();
    const context = session(root);
    const committed = await run("git add README.md && git commit -q -m first && git log --oneline", context);
    expect(committed.text).toContain("first");
    const objects = await run(`python3 -c "open('.git/objects/planted', 'w')"`, context);
    expect(objects.text).toMatch(/Read-only file system/);
    expect(existsSync(join(root, ".git", "objects", "planted"))).toBe(false);
    const hook = await run(
      "git add README.md; echo planted > .git/hooks/post-commit",
      context,
      approvedByMode,
    );
    expect(hook.text).toMatch(/Read-only file system/);
  });

  it("ends every process a confined call started when the call ends", async () => {
    const root = project();
    await run("sleep 61.73 & echo started", session(root));
    const survivors = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.trim() === "sleep 61.73");
    expect(survivors).toEqual([]);
  });

  it("kills a confined command and all it started on timeout", async () => {
    const root = project();
    const result = await callTool(
      BashTool,
      { command: "sleep 63.19 & echo begun; sleep 64.27; wait", timeout: 1_000 },
      session(root),
    );
    expect(result.data.timedOut).toBe(true);
    const survivors = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
      .split("\n")
      .filter((line) => /^sleep 6(3\.19|4\.27)$/.test(line.trim()));
    expect(survivors).toEqual([]);
    expect(listing(root)).not.toContain(".claude");
  });

  it("ends a confined background task and all it started on TaskStop, its stand-ins with it", async () => {
    const root = project({ git: false });
    const before = listing(root);
    const context = session(root);
    const started = await callTool(
      BashTool,
      { command: "sleep 62.41 & echo up; wait", run_in_background: true },
      context,
    );
    const id = started.data.backgroundTaskId ?? "";
    // While it runs, its stand-ins stand (a .git here is what keeps a repository from being planted).
    expect(existsSync(join(root, ".git"))).toBe(true);
    await callTool(TaskStopTool, { task_id: id }, context);
    const survivors = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.trim() === "sleep 62.41");
    expect(survivors).toEqual([]);
    expect(listing(root)).toEqual(before);
  });

  it("runs two confined calls side by side and leaves nothing behind", async () => {
    const root = project({ git: false });
    const before = listing(root);
    const context = session(root);
    const [slow, fast] = await Promise.all([
      run("sleep 0.5; ls -a | grep -c '^.claude$'", context),
      run("mkdir .claude 2>&1; echo fast", context, approvedByMode),
    ]);
    expect(slow.text).toContain("1");
    expect(fast.text).toMatch(/File exists|Read-only file system/);
    expect(listing(root)).toEqual(before);
  });

  it("runs a call made outside the pipeline (no decision recorded) confined too", async () => {
    const root = project();
    const context = session(root);
    const result = await callTool(
      BashTool,
      { command: "echo planted > .git/hooks/pre-push; echo done" },
      context,
    );
    expect(result.text).toMatch(/Read-only file system/);
    expect(existsSync(join(root, ".git", "hooks", "pre-push"))).toBe(false);
  });

  it("runs a call a person approved as before, unconfined (the control)", async () => {
    const root = project();
    const prompter = callbackPrompter(async () => ({ behavior: "allow" }), "person");
    const result = await run("echo by-hand > .git/hooks/pre-push", session(root, "default"), { prompter });
    expect(result.decision?.reason.type).toBe("user");
    expect(readFileSync(join(root, ".git", "hooks", "pre-push"), "utf8")).toBe("by-hand\n");
  });
});

describe("without a sandbox, the same decisions ask", () => {
  const commands = [
    `python3 -c "open('.git/hooks/pre-commit', 'w').write('echo planted')"`,
    "tar xf x.tar",
    "patch -p1 < x.patch",
    `curl -s -o /dev/null -w '%output{.git/x}%{http_code}' http://127.0.0.1:1/`,
    "ls | xargs -I@ touch @",
    "make",
  ];

  /** A session loaded as `keel` loads one, under a PATH where bubblewrap is not to be found. */
  function withoutBubblewrap(root: string, mode: "bypassPermissions" | "acceptEdits"): ToolUseContext {
    const noBwrap = join(base, "no-bwrap-bin");
    mkdirSync(noBwrap, { recursive: true });
    const env = {
      PATH: noBwrap,
      HOME: home,
      KEEL_HOME: home,
      KEEL_MANAGED_SETTINGS: join(base, "none.json"),
    };
    const settings = loadSettings({ cwd: root, env, cli: { permissionMode: mode } });
    expect(settings.permissionContext.sandbox.confinement).toBe(false);
    // The person is told what entering the mode here means, and how to get the sandbox.
    const notice = settings.warnings.find((warning) =>
      warning.startsWith("No sandbox can confine Bash calls"),
    );
    expect(notice).toContain(`in ${mode} mode`);
    expect(notice).toContain("apt-get install bubblewrap");
    return createToolUseContext({ tools: [BashTool], permissionContext: settings.permissionContext });
  }

  it.each(commands)("%s asks in bypass and acceptEdits mode", async (command) => {
    const root = project();
    for (const mode of ["bypassPermissions", "acceptEdits"] as const) {
      const decision = await decidePermission(BashTool, { command }, withoutBubblewrap(root, mode));
      expect(decision.behavior, mode).toBe("ask");
      expect(decision.decisionReason.type, mode).toBe("safetyCheck");
    }
  });

  it.each(commands.filter((command) => command.startsWith("python3")))(
    "%s is what bypass mode allows where the confinement is available",
    async (command) => {
      const decision = await decidePermission(BashTool, { command }, session(project()));
      expect(decision.decisionReason).toEqual({ type: "mode", mode: "bypassPermissions" });
    },
  );
});
