import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sandboxUnavailableReason, stopSandbox } from "../../shell/sandbox/sandbox.ts";
import { ToolError } from "../../tool/errors.ts";
import { isRunning } from "../../tool/testing/processes.ts";
import { BashTool } from "./BashTool.ts";
import {
  APPROVED_BY_PERSON,
  callTool,
  createShellTestSession,
  shellSessionForEachTest,
} from "./testing/context.ts";

const session = shellSessionForEachTest();

const bash = (input: Record<string, unknown>, current = session) =>
  callTool(BashTool, input, current.context);

describe("Bash: running a command", () => {
  it("returns the output and no error for exit 0", async () => {
    const result = await bash({ command: "echo hi; echo there >&2" });
    expect(result.text).toBe("hi\nthere");
    expect(result.block.is_error).toBeUndefined();
    expect(result.data.exitCode).toBe(0);
  });

  it("strips ANSI escapes for the model", async () => {
    const result = await bash({ command: "printf '\\033[31mred\\033[0m \\033[1mbold\\033[22m\\n'" });
    expect(result.text).toBe("red bold");
  });

  it("runs with stdin closed, so a reader ends at once", async () => {
    const result = await bash({ command: "cat; read -r x || echo no-input" });
    expect(result.text).toBe("no-input");
  });

  it("returns when the command exits even if it left a daemon behind", async () => {
    const result = await bash({
      command: "(sleep 30 & echo $! > d1.pid) ; nohup sleep 30 >/dev/null 2>&1 & echo $! > d2.pid; echo done",
    });
    expect(result.text).toBe("done");
    for (const name of ["d1.pid", "d2.pid"])
      process.kill(Number(readFileSync(join(session.root, name), "utf8")));
  });

  it.each([
    ["exit 0", "true", false, undefined],
    ["exit 1", "exit 1", true, "Exit code 1"],
    ["grep with no match", "echo abc | grep xyz", false, "Exit code 1: No matches found"],
    ["grep error (2)", "grep x /nonexistent/file", true, "Exit code 2"],
    [
      "diff of differing files",
      "printf a > f1; printf b > f2; diff f1 f2",
      false,
      "Exit code 1: Files differ",
    ],
    [
      "find with unreadable paths",
      "find /nonexistent-keel-dir",
      false,
      "Exit code 1: Some paths could not be read",
    ],
    ["test false", "test -f missing-file", false, "Exit code 1: Condition is false"],
    ["[ false", "[ -d missing-dir ]", false, "Exit code 1: Condition is false"],
    ["grep 1 not last in the list", "echo a | grep b; exit 1", true, "Exit code 1"],
    ["failure after a grep", "echo a | grep a && false", true, "Exit code 1"],
    ["command not found", "no_such_command_keel", true, "Exit code 127"],
  ])("exit-code semantics: %s", async (_name, command, isError, note) => {
    const result = await bash({ command });
    expect(result.data.isError).toBe(isError);
    expect(result.block.is_error === true).toBe(isError);
    if (note) expect(result.text.split("\n")).toContain(note);
  });

  it("caps output at 30,000 characters, keeping head and tail, and saves the whole output", async () => {
    const result = await bash({ command: "seq 1 100000" });
    expect(result.text.length).toBeLessThanOrEqual(30_000);
    expect(result.text.startsWith("1\n2\n3\n")).toBe(true);
    expect(result.text).toContain("99999\n100000");
    expect(result.text).toMatch(/output truncated: about [\d,]+ bytes cut/);
    const saved = result.data.outputPath ?? "";
    expect(saved.startsWith(session.context.options.toolResultsDir)).toBe(true);
    expect(result.text).toContain(saved);
    expect(statSync(saved).size).toBe(588_895);
  });

  it("stays within the 30,000-character result budget with its notes added", async () => {
    const result = await bash({
      command: `head -c 29990 /dev/zero | tr '\\0' a; cd ${session.outside}; exit 3`,
    });
    expect(result.text).toContain("Exit code 3");
    expect(result.text).toContain("Shell cwd was reset");
    expect(result.text.length).toBeLessThanOrEqual(30_000);
  });

  it("summarizes binary output", async () => {
    const result = await bash({ command: "printf '\\x7fELF\\x00\\x01\\x02'" });
    expect(result.data.binary).toBe(true);
    expect(result.text).toMatch(/^\[binary output: 7 bytes; saved to /);
  });

  it("reports progress with the latest lines while a command runs", async () => {
    const result = await bash({ command: "echo working; sleep 2.6; echo done" });
    expect(result.progress.length).toBeGreaterThan(0);
    expect(result.progress[0]).toMatchObject({
      command: "echo working; sleep 2.6; echo done",
      output: "working",
    });
  });
});

describe("Bash: timeout and abort", () => {
  it("times out, kills grandchildren, and says so as an error", async () => {
    // The command must print and start its grandchild before the timeout. On a loaded machine that can
    // take longer than any fixed timeout, so a run where it did not get that far is repeated with twice
    // the timeout: what is checked never depends on the machine's speed.
    const pidFile = join(session.root, "gc.pid");
    for (let timeout = 400; ; timeout *= 2) {
      rmSync(pidFile, { force: true });
      // Approved by a person, so unconfined: the pid it writes is this machine's, not a namespace's
      // (a confined call's processes end with it; confinement.test.ts checks that).
      const result = await callTool(
        BashTool,
        {
          command: `(sleep 60 & echo $! > ${pidFile}; wait) & until [ -s ${pidFile} ]; do sleep 0.01; done; echo begun; wait`,
          timeout,
        },
        session.context,
        APPROVED_BY_PERSON,
      );
      expect(result.block.is_error).toBe(true);
      expect(result.data.timedOut).toBe(true);
      expect(result.text).toContain(`timed out after ${timeout} ms`);
      if (!result.text.includes("begun") && timeout < 60_000) continue;
      expect(result.text).toContain("begun");
      const grandchild = Number(readFileSync(pidFile, "utf8"));
      for (let i = 0; i < 500 && isRunning(grandchild); i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(isRunning(grandchild)).toBe(false);
      return;
    }
  });

  it("is cancelled by the context's abort controller", async () => {
    // Aborted once the command has printed (it says so with a file), not after a fixed delay.
    const started = join(session.root, "started");
    const cancelled = bash({ command: `echo partial; touch ${started}; sleep 30` }).catch(
      (caught: unknown) => caught,
    );
    while (!existsSync(started)) await new Promise((resolve) => setTimeout(resolve, 10));
    session.context.abortController.abort();
    const error = await cancelled;
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe("aborted");
    expect((error as ToolError).message).toContain("partial");
  });

  it("rejects a timeout over the maximum, and the maximum is configurable", async () => {
    const over = await BashTool.validateInput?.({ command: "true", timeout: 600_001 }, session.context);
    expect(over).toMatchObject({ result: false, errorCode: "invalid_input" });
    process.env.KEEL_BASH_MAX_TIMEOUT_MS = "1000";
    try {
      expect(
        await BashTool.validateInput?.({ command: "true", timeout: 1_001 }, session.context),
      ).toMatchObject({
        result: false,
      });
      expect(await BashTool.validateInput?.({ command: "true", timeout: 1_000 }, session.context)).toEqual({
        result: true,
      });
    } finally {
      delete process.env.KEEL_BASH_MAX_TIMEOUT_MS;
    }
  });

  it("uses KEEL_BASH_DEFAULT_TIMEOUT_MS when no timeout is given", async () => {
    process.env.KEEL_BASH_DEFAULT_TIMEOUT_MS = "300";
    try {
      const result = await bash({ command: "sleep 30" });
      expect(result.data.timedOut).toBe(true);
      expect(result.data.timeoutMs).toBe(300);
    } finally {
      delete process.env.KEEL_BASH_DEFAULT_TIMEOUT_MS;
    }
  });
});

describe("Bash: working directory", () => {
  it("persists a cd inside the working directories to the next call", async () => {
    await bash({ command: "mkdir -p sub/deep && cd sub/deep" });
    expect(session.context.getAppState().cwd).toBe(join(session.root, "sub", "deep"));
    const result = await bash({ command: "pwd" });
    expect(result.text).toBe(join(session.root, "sub", "deep"));
  });

  it("resets a cd outside the working directories to the project root, and says so", async () => {
    await bash({ command: "mkdir -p sub && cd sub" });
    const result = await bash({ command: `cd ${session.outside}` });
    expect(result.text).toContain(`Shell cwd was reset to ${session.root}`);
    expect(result.data.cwdNote).toContain(session.outside);
    expect(session.context.getAppState().cwd).toBe(session.root);
    expect((await bash({ command: "pwd" })).text).toBe(session.root);
  });

  it("keeps a cd into an additional working directory", async () => {
    const extra = await createShellTestSession();
    const withExtra = await createShellTestSession({ additionalDirectories: [extra.root] });
    try {
      await bash({ command: `cd ${extra.root}` }, withExtra);
      expect(withExtra.context.getAppState().cwd).toBe(extra.root);
    } finally {
      await extra.cleanup();
      await withExtra.cleanup();
    }
  });

  it("falls back to the project root when the stored cwd was removed", async () => {
    await mkdir(join(session.root, "gone"));
    await bash({ command: "cd gone" });
    // Removed from outside: a confined call cannot remove the folder it starts in (its stand-ins are mount points).
    rmSync(join(session.root, "gone"), { recursive: true });
    const result = await bash({ command: "pwd" });
    expect(result.text.split("\n")[0]).toBe(session.root);
    expect(result.text).toContain("Shell cwd was reset");
  });
});

describe("Bash: background", () => {
  it("returns a task id at once and writes output to a file in the results folder", async () => {
    const result = await bash({ command: "echo bg; sleep 30", run_in_background: true, description: "wait" });
    const id = result.data.backgroundTaskId ?? "";
    expect(id).toMatch(/^bash_/);
    expect(result.text).toContain(id);
    expect(result.text).toContain("TaskOutput");
    expect(result.data.outputPath?.startsWith(session.context.options.toolResultsDir)).toBe(true);
  });
});

describe("Bash: the tool's members", () => {
  it("is read-only and parallel-safe only for read-only commands", () => {
    expect(BashTool.isReadOnly({ command: "ls -la" })).toBe(true);
    expect(BashTool.isConcurrencySafe({ command: "git status" })).toBe(true);
    expect(BashTool.isReadOnly({ command: "rm -rf build" })).toBe(false);
    expect(BashTool.isConcurrencySafe({ command: "echo x > file" })).toBe(false);
  });

  it("keeps the whole input through the permission check", async () => {
    const result = await BashTool.checkPermissions(
      { command: "ls", timeout: 5_000, description: "list" },
      session.context,
    );
    if ("updatedInput" in result && result.updatedInput)
      expect(result.updatedInput).toMatchObject({ command: "ls", timeout: 5_000, description: "list" });
    expect(["allow", "ask", "deny", "passthrough"]).toContain(result.behavior);
  });

  it("has a prompt with the current limits and command views", async () => {
    const prompt = await BashTool.prompt({ tools: [] });
    expect(prompt).toContain("120000 ms");
    expect(prompt).toContain("600000 ms");
    expect(prompt).toContain("30,000");
    expect(prompt).not.toContain("{{");
    expect(BashTool.renderToolUse?.({ command: "ls" })).toEqual({ kind: "command", command: "ls" });
    expect(BashTool.interruptBehavior()).toBe("cancel");
    expect(BashTool.maxResultSizeChars).toBe(30_000);
  });
});

const sandboxReason = sandboxUnavailableReason();
describe.skipIf(sandboxReason !== undefined)("Bash: sandboxed", () => {
  afterEach(async () => {
    await stopSandbox();
  });

  it("writes inside the project and fails to write outside", async () => {
    const sandboxed = await createShellTestSession({ sandbox: true });
    try {
      const inside = await bash({ command: "echo ok > inside.txt && cat inside.txt" }, sandboxed);
      expect(inside.text).toBe("ok");
      const target = join("/var/tmp", `keel-bash-escape-${process.pid}`);
      const outside = await bash({ command: `echo no > ${target}` }, sandboxed);
      expect(outside.block.is_error).toBe(true);
      expect(existsSync(target)).toBe(false);
    } finally {
      await sandboxed.cleanup();
    }
  });

  it("refuses to run, and runs nothing, when the sandbox cannot start", async () => {
    const sandboxed = await createShellTestSession({ sandbox: true });
    const path = process.env.PATH;
    const marker = join(sandboxed.root, "ran");
    await writeFile(join(sandboxed.root, "keep"), "");
    process.env.PATH = "/nonexistent-keel-path";
    try {
      const error = await bash({ command: `/usr/bin/touch ${marker}` }, sandboxed).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ToolError);
      expect((error as ToolError).code).toBe("sandbox_unavailable");
      expect((error as ToolError).message).toContain("bwrap");
    } finally {
      process.env.PATH = path;
    }
    expect(existsSync(marker)).toBe(false);
    await sandboxed.cleanup();
  });
});
