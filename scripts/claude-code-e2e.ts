// End-to-end: the real Claude Code CLI with `keel hook claude-code` installed, driven by Keel's scripted
// Anthropic server (dummy key, ANTHROPIC_BASE_URL) in temporary homes and projects. Not part of CI.
//
//   npm run build && npm run e2e:claude-code
//
// Claude Code is installed from npm into $TMPDIR/keel-claude-code/<version> on first use
// (KEEL_E2E_CLAUDE_CODE_VERSION, KEEL_E2E_CLAUDE_CODE_DIR to change). Four groups of checks, each in a
// world of its own:
// - Keel's hook (here): the model asks for three Bash calls:
//   1. a read-only compound command Claude Code on its own asks about: first run without the hook
//      (in -p mode nobody can approve, so Claude Code refuses it), then with it: it runs without a prompt;
//   2. a dangerous command under a deny rule, hidden behind a wrapper: refused with Keel's reason;
//   3. a plain write Keel has no proof for: left to Claude Code (which, with nobody to ask, refuses).
//   Then the audit log must show all three decisions, and `keel audit --summary` is printed. A last
//   session keeps only the PermissionRequest hook: Keel answers Claude Code's approval dialog for command 1.
// - A project's shared hook (here): `hook install --project` works where `keel` is on PATH, and where it
//   is not Claude Code refuses the call with the hook's reason.
// - The hook fails closed (claude-code/failClosed.ts): broken Keel settings refuse every call, and a
//   safety check's ask reaches Claude Code as its own ask (a deny in dontAsk).
// - Keel's own agent skips Keel's hook entry (claude-code/ownAgent.ts).
// The script exits 1 when a check fails.
//
// Nothing harmful can run even if the hook failed: the "dangerous" commands delete only build/ of a
// temporary project, by absolute path; here Claude Code's own settings deny it too (Bash(rm:*)), in -p
// mode nobody can approve a call that asks, and the fail-closed checks run Claude Code in bubblewrap.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listServers, stopServers } from "../src/cli/decisionServer/control.ts";
import { failClosedChecks } from "./claude-code/failClosed.ts";
import {
  auditRecords,
  claudeEnv,
  claudeSession,
  installClaudeCode,
  KEEL,
  keel,
  makeWorld,
  REPO,
  readJson,
  type World,
  writeJson,
} from "./claude-code/harness.ts";
import { ownAgentChecks } from "./claude-code/ownAgent.ts";
import { check, summarize } from "./claude-code/report.ts";

const READ_ONLY = "awk '{print $1}' README.md | sort | uniq -c && wc -l README.md";
const UNPROVEN = "touch notes.txt";

/** rm of the temporary project's build/ folder, by absolute path, behind a wrapper. */
function dangerousCommand(world: World): string {
  return `timeout 5 rm -rf ${join(world.project, "build")}`;
}

function session(binary: string, world: World, commands: string[], path?: string) {
  const calls = commands.map((command) => ({ name: "Bash", input: { command } }));
  return claudeSession(binary, world, calls, path === undefined ? {} : { path });
}

/**
 * `hook install claude-code --project`: the shared settings file names no path of this machine; on a
 * teammate's machine with `keel` on PATH Keel decides, and on one without it Claude Code refuses the
 * call with the hook's reason (exit 2 is a block).
 */
async function projectInstall(binary: string): Promise<void> {
  const world = makeWorld("keel-claude-code-project-");
  try {
    const install = keel(world, ["hook", "install", "claude-code", "--project"]);
    const shared = readFileSync(join(world.project, ".claude", "settings.json"), "utf8");
    check(
      "hook install claude-code --project writes no path of this machine",
      install.status === 0 && !shared.includes(REPO) && !shared.includes(process.execPath),
      shared,
    );
    // A teammate's machine with Keel installed: a `keel` on PATH, as `npm i -g` puts one.
    const bin = join(world.base, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "keel"), `#!/bin/sh\nexec '${process.execPath}' '${KEEL}' "$@"\n`, {
      mode: 0o755,
    });
    const systemPath = "/usr/local/bin:/usr/bin:/bin";
    const [withKeel] = await session(binary, world, [READ_ONLY], `${bin}:${systemPath}`);
    check(
      "with keel on PATH, the project's hook lets the read-only command run without a prompt",
      withKeel !== undefined && !withKeel.isError && /\d+ README\.md/.test(withKeel.text),
      withKeel?.text ?? "no tool result",
    );
    // One without: the hook blocks (exit 2) and Claude Code refuses the call with its reason.
    const [without] = await session(binary, world, [READ_ONLY], systemPath);
    check(
      "without keel on PATH, Claude Code refuses the call with the hook's reason",
      without?.isError === true && /cannot run: no keel on PATH/.test(without.text),
      without?.text ?? "no tool result",
    );
  } finally {
    // The hook's first call started a decision server in this world's folder: it goes with the world.
    await stopServers(claudeEnv(world, "http://127.0.0.1:9"));
    if (!process.env.KEEL_E2E_KEEP) rmSync(world.base, { recursive: true, force: true });
    else process.stdout.write(`kept ${world.base}\n`);
  }
}

/** A group of checks in worlds of their own; one that cannot finish (Claude Code failed to run) is a FAIL. */
async function section(title: string, run: () => Promise<void>): Promise<void> {
  process.stdout.write(`\n## ${title}\n`);
  try {
    await run();
  } catch (error) {
    check(`${title}: the checks ran to their end`, false, (error as Error)?.message ?? String(error));
  }
}

/** Keel's hook in Claude Code's user settings: allow, deny and no opinion, the audit, uninstall. */
async function hookChecks(binary: string): Promise<void> {
  const world = makeWorld("keel-claude-code-e2e-");
  try {
    // Claude Code's own settings: a deny rule, as many users have.
    writeJson(join(world.home, ".claude", "settings.json"), { permissions: { deny: ["Bash(rm:*)"] } });

    const DANGEROUS = dangerousCommand(world);
    const commands = [READ_ONLY, DANGEROUS, UNPROVEN];
    const control = await session(binary, world, commands);
    const controlReadOnly = control.find((result) => result.toolUseId === "toolu_e2e_0");
    check(
      "without Keel, Claude Code asks about the read-only compound command (refused in -p mode)",
      controlReadOnly?.isError === true && !/Keel/.test(controlReadOnly.text),
      controlReadOnly?.text ?? "no tool result",
    );

    const install = keel(world, ["hook", "install", "claude-code", "--user"]);
    check("keel hook install claude-code --user", install.status === 0, install.stdout + install.stderr);

    const results = await session(binary, world, commands);
    const [readOnly, dangerous, unproven] = ["toolu_e2e_0", "toolu_e2e_1", "toolu_e2e_2"].map((id) =>
      results.find((result) => result.toolUseId === id),
    );
    check(
      "with Keel, the read-only compound command runs without a prompt",
      readOnly !== undefined && !readOnly.isError && /\d+ README\.md/.test(readOnly.text),
      readOnly?.text ?? "no tool result",
    );
    check(
      "the dangerous command is refused with Keel's reason",
      dangerous?.isError === true &&
        /Keel refused this call/.test(dangerous.text) &&
        /Bash\(rm:\*\)/.test(dangerous.text),
      dangerous?.text ?? "no tool result",
    );
    check("nothing was deleted", existsSync(join(world.project, "build", "keep.txt")), "build/keep.txt");
    check(
      "the unproven write is left to Claude Code (its own refusal, not Keel's)",
      unproven?.isError === true &&
        !/Keel/.test(unproven.text) &&
        !existsSync(join(world.project, "notes.txt")),
      unproven?.text ?? "no tool result",
    );

    const records = auditRecords(world).filter((record) => record.agent === "claude-code");
    const find = (command: string) =>
      records.find(
        (record) => record.hookEvent === "PreToolUse" && String(record.inputSummary).includes(command),
      );
    const allowed = find("uniq -c");
    const denied = find(DANGEROUS);
    const left = find("touch notes.txt");
    check(
      "the audit log shows the allow, with who decided",
      allowed?.behavior === "allow" && /bash-analyzer/.test(String(allowed.decidedBy)),
      JSON.stringify(allowed ?? null),
    );
    check(
      "the audit log shows the refusal, with who decided",
      denied?.behavior === "deny" && /Bash\(rm:\*\)/.test(String(denied.decidedBy)),
      JSON.stringify(denied ?? null),
    );
    check(
      "the audit log shows the call left to the person",
      left?.behavior === "ask",
      JSON.stringify(left ?? null),
    );

    const summary = keel(world, ["audit", "--summary"]);
    process.stdout.write(`\n$ keel audit --summary\n${summary.stdout}${summary.stderr}`);

    // Only the PermissionRequest hook: Claude Code asks about command 1 itself, and Keel answers.
    const settingsFile = join(world.home, ".claude", "settings.json");
    const installed = readJson(settingsFile) as { hooks: Record<string, unknown> };
    writeJson(settingsFile, {
      ...installed,
      hooks: { PermissionRequest: installed.hooks.PermissionRequest },
    });
    const [answered] = await session(binary, world, [READ_ONLY]);
    check(
      "with only the PermissionRequest hook, Keel answers Claude Code's approval: the command runs",
      answered !== undefined && !answered.isError && /\d+ README\.md/.test(answered.text),
      answered?.text ?? "no tool result",
    );
    const approval = auditRecords(world).find(
      (record) => record.hookEvent === "PermissionRequest" && String(record.inputSummary).includes("uniq -c"),
    );
    check(
      "the audit log shows the PermissionRequest allow",
      approval?.behavior === "allow" && approval.agent === "claude-code",
      JSON.stringify(approval ?? null),
    );
    const uninstall = keel(world, ["hook", "uninstall", "claude-code"]);
    const remaining = readJson(settingsFile);
    check(
      "keel hook uninstall claude-code leaves Claude Code's settings as they were",
      uninstall.status === 0 &&
        /- PermissionRequest/.test(uninstall.stdout) &&
        JSON.stringify(remaining) === JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }),
      `${uninstall.stdout} ${JSON.stringify(remaining)}`,
    );
    // The hook's first call of each session decides in its own process and starts a decision server;
    // later calls of the session are answered by it.
    const servers = await listServers(claudeEnv(world, "http://127.0.0.1:9"));
    const served = servers.reduce((sum, server) => sum + server.requests, 0);
    check(
      "Keel's decision server answered Claude Code's later hook calls",
      served > 0,
      `${servers.length} server(s), ${served} answers`,
    );
  } finally {
    await stopServers(claudeEnv(world, "http://127.0.0.1:9"));
    if (!process.env.KEEL_E2E_KEEP) rmSync(world.base, { recursive: true, force: true });
    else process.stdout.write(`kept ${world.base}\n`);
  }
}

async function main(): Promise<void> {
  if (!existsSync(join(KEEL, "../../dist/cli-bundle/main.js"))) throw new Error("run `npm run build` first");
  const binary = installClaudeCode();
  const version = spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout.trim();
  process.stdout.write(`Claude Code ${version}, scripted model, keel ${KEEL}\n`);
  await section("Claude Code with Keel's hook", () => hookChecks(binary));
  await section("a project's shared hook", () => projectInstall(binary));
  await section("the hook fails closed", () => failClosedChecks(binary));
  await section("Keel's own agent skips Keel's hook", () => ownAgentChecks(binary));
  process.exitCode = summarize() ? 0 : 1;
}

await main();
