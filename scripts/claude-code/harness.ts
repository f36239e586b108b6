// The real Claude Code CLI, driven by Keel's scripted Anthropic server: installed from npm into a cache
// folder (never a dependency of Keel), run in `-p` mode in a temporary home and project with a dummy key.
// Used by scripts/claude-code-e2e.ts and scripts/record-claude-code-events.ts.
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startAnthropicServer } from "../../src/agent/testing/anthropicServer.ts";
import type { RecordedRequest, ScriptTurn } from "../../src/agent/testing/script.ts";

export const CLAUDE_CODE_VERSION = process.env.KEEL_E2E_CLAUDE_CODE_VERSION ?? "2.1.332";
export const REPO = new URL("../../", import.meta.url).pathname;
export const KEEL = join(REPO, "bin/keel.js");

function platformPackage(): string {
  const musl =
    platform() === "linux" &&
    !existsSync("/lib/ld-linux-x86-64.so.2") &&
    !existsSync("/lib64/ld-linux-x86-64.so.2");
  return `@anthropic-ai/claude-code-${platform()}-${arch()}${musl ? "-musl" : ""}`;
}

/** The cache folder of a version and its `claude` binary (KEEL_E2E_CLAUDE_CODE_DIR to change). */
function claudeCodeLocation(version: string): { dir: string; binary: string } {
  const dir = process.env.KEEL_E2E_CLAUDE_CODE_DIR ?? join(tmpdir(), "keel-claude-code", version);
  const binary = join(
    dir,
    "node_modules",
    platformPackage(),
    platform() === "win32" ? "claude.exe" : "claude",
  );
  return { dir, binary };
}

/**
 * The `claude` binary of this version, installed with npm into a cache folder on first use. The
 * package's postinstall (which copies the binary into place) is not needed: the platform package
 * holds the binary itself.
 */
export function installClaudeCode(version = CLAUDE_CODE_VERSION): string {
  const { dir, binary } = claudeCodeLocation(version);
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    process.stderr.write(`installing @anthropic-ai/claude-code@${version} into ${dir} ...\n`);
    const install = spawnSync(
      "npm",
      [
        "install",
        "--prefix",
        dir,
        "--no-save",
        "--no-audit",
        "--no-fund",
        `@anthropic-ai/claude-code@${version}`,
      ],
      { stdio: ["ignore", "inherit", "inherit"] },
    );
    if (install.status !== 0 || !existsSync(binary))
      throw new Error(
        `could not install Claude Code ${version} (npm exited ${install.status}); no ${binary}`,
      );
  }
  const probe = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 60_000 });
  if (probe.status !== 0) throw new Error(`${binary} --version failed: ${probe.stderr}`);
  return binary;
}

export interface World {
  base: string;
  home: string;
  project: string;
}

/** A temporary home (Claude Code's and Keel's) and a small git project. */
export function makeWorld(prefix: string): World {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const home = join(base, "home");
  const project = join(base, "project");
  mkdirSync(join(home, ".claude"), { recursive: true });
  mkdirSync(join(base, "run"), { mode: 0o700 });
  mkdirSync(join(base, "tmp"), { mode: 0o700 });
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(project, "build"));
  writeFileSync(join(project, "README.md"), "keel demo\nkeel hook\nclaude code\n");
  writeFileSync(join(project, "src", "app.ts"), "export const answer = 42;\n");
  writeFileSync(join(project, "build", "keep.txt"), "still here\n");
  spawnSync("git", ["init", "-q"], { cwd: project });
  return { base, home, project };
}

export function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Environment for Claude Code and its hooks: the temporary home for both, the scripted server, no network extras. */
export function claudeEnv(world: World, serverUrl: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: world.home,
    KEEL_HOME: world.home,
    KEEL_MANAGED_SETTINGS: join(world.base, "no-managed-settings.json"),
    // Keel's decision servers (started by the hook's first call) listen in the world's own folder, so
    // stopping them at the end stops only this run's, never another Keel's on the same account.
    KEEL_DECISION_SERVER_DIR: join(world.base, "run"),
    // Claude Code's own temporary files (its Bash output, under <tmp>/claude-<uid>/) go with the world.
    CLAUDE_CODE_TMPDIR: join(world.base, "tmp"),
    ANTHROPIC_API_KEY: "dummy",
    ANTHROPIC_BASE_URL: serverUrl,
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  };
}

export interface ClaudeRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Whether bubblewrap runs here (Linux with user namespaces): the confined sessions need it. */
export function canConfine(): boolean {
  if (platform() !== "linux") return false;
  const probe = spawnSync(
    "bwrap",
    ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--die-with-parent", "true"],
    { stdio: "ignore", timeout: 10_000 },
  );
  return probe.status === 0;
}

/**
 * `binary args` inside bubblewrap with `/` read-only: only the world's folder is writable (and a fresh
 * /tmp), so whatever Claude Code runs can change nothing outside the temporary home and project.
 * IS_SANDBOX=1 is Claude Code's own switch for "running deliberately sandboxed", which it requires
 * before `--dangerously-skip-permissions` runs as root; here it is true.
 */
function confined(binary: string, args: string[], world: World, env: NodeJS.ProcessEnv) {
  const install = dirname(dirname(dirname(dirname(binary))));
  const bwrapArgs = [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--bind",
    world.base,
    world.base,
    "--ro-bind",
    install,
    install,
    "--die-with-parent",
    "--chdir",
    world.project,
    "--",
    binary,
    ...args,
  ];
  return { file: "bwrap", args: bwrapArgs, env: { ...env, IS_SANDBOX: "1" } };
}

export interface ClaudeOptions {
  /** More flags for `claude` (`--dangerously-skip-permissions`). */
  extra?: string[];
  /** Run inside bubblewrap (see confined): for sessions where a hook that failed open could run something. */
  confine?: boolean;
}

/** `claude -p <prompt>` in the project; asynchronous, so the scripted server in this process can answer. */
export function runClaude(
  binary: string,
  world: World,
  env: NodeJS.ProcessEnv,
  prompt: string,
  options: ClaudeOptions = {},
): Promise<ClaudeRun> {
  const args = [
    "-p",
    prompt,
    "--output-format",
    "json",
    "--model",
    "claude-sonnet-4-5",
    ...(options.extra ?? []),
  ];
  const command = options.confine ? confined(binary, args, world, env) : { file: binary, args, env };
  return runAsync(command.file, command.args, world.project, command.env);
}

/** `claude <args>` in the project, run to its end without blocking this process. */
export function runClaudeArgs(
  binary: string,
  world: World,
  env: NodeJS.ProcessEnv,
  args: readonly string[],
): Promise<ClaudeRun> {
  return runAsync(binary, [...args], world.project, env);
}

/** A child process run to its end without blocking this process (whose scripted server must answer it). */
function runAsync(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ClaudeRun> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

/** The cached `claude` binary of this version, when an earlier run installed it (no network). */
export function cachedClaudeCode(version = CLAUDE_CODE_VERSION): string | undefined {
  const { binary } = claudeCodeLocation(version);
  return existsSync(binary) ? binary : undefined;
}

export interface ToolResultSeen {
  toolUseId: string;
  isError: boolean;
  text: string;
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((block) => (typeof block?.text === "string" ? block.text : "")).join("");
  return "";
}

/**
 * A model that makes the given tool calls one after another in the main conversation (the requests
 * that offer the Bash tool), then says "done"; other requests (titles, summaries) get "ok". Every
 * tool result Claude Code sends back is collected.
 */
export function toolCallScript(calls: ReadonlyArray<{ name: string; input: unknown }>) {
  const results: ToolResultSeen[] = [];
  const script = (request: RecordedRequest): ScriptTurn => {
    const body = request.body as {
      tools?: Array<{ name?: string }>;
      messages?: Array<{ role: string; content: unknown }>;
    };
    if (!(body.tools ?? []).some((tool) => tool.name === "Bash"))
      return { blocks: [{ type: "text", text: "ok" }] };
    const messages = body.messages ?? [];
    let answered = 0;
    for (const message of messages) {
      if (message.role !== "user" || !Array.isArray(message.content)) continue;
      for (const block of message.content as Array<Record<string, unknown>>) {
        if (block.type !== "tool_result") continue;
        answered++;
        const toolUseId = String(block.tool_use_id);
        if (!results.some((seen) => seen.toolUseId === toolUseId))
          results.push({ toolUseId, isError: block.is_error === true, text: resultText(block.content) });
      }
    }
    const next = calls[answered];
    if (!next) return { blocks: [{ type: "text", text: "done" }] };
    return {
      blocks: [{ type: "tool_use", name: next.name, input: next.input, id: `toolu_e2e_${answered}` }],
    };
  };
  return { script, results };
}

export interface SessionOptions extends ClaudeOptions {
  /** PATH for Claude Code and its hooks (default: this process's). */
  path?: string;
}

/**
 * One `claude -p` session of the world against a scripted model that makes `calls` one after another;
 * the tool results Claude Code sent back, in order. Throws when Claude Code does not exit 0.
 */
export async function claudeSession(
  binary: string,
  world: World,
  calls: ReadonlyArray<{ name: string; input: unknown }>,
  options: SessionOptions = {},
): Promise<ToolResultSeen[]> {
  const { script, results } = toolCallScript(calls);
  const server = await startAnthropicServer({ script });
  try {
    const env = {
      ...claudeEnv(world, server.url),
      ...(options.path === undefined ? {} : { PATH: options.path }),
    };
    const run = await runClaude(binary, world, env, "Look around the project.", options);
    if (run.status !== 0)
      throw new Error(
        `claude exited ${run.status ?? run.signal}: ${(run.stderr || run.stdout).slice(0, 500)}`,
      );
    return results;
  } finally {
    await server.close();
  }
}

/** The tool result of the session's call number `index` (toolCallScript's ids), if Claude Code sent one. */
export function resultOf(results: readonly ToolResultSeen[], index: number): ToolResultSeen | undefined {
  return results.find((result) => result.toolUseId === `toolu_e2e_${index}`);
}

/** `keel <args>` in the world's project, with the world's home; the model server given, or none. */
export function keel(world: World, args: string[], serverUrl = "http://127.0.0.1:9") {
  return spawnSync(process.execPath, [KEEL, ...args], {
    cwd: world.project,
    env: claudeEnv(world, serverUrl),
    encoding: "utf8",
    timeout: 180_000,
  });
}

/** `keel <args>` as keel() does, without blocking: for `keel -p` against a scripted server in this process. */
export function runKeel(world: World, args: string[], serverUrl: string): Promise<ClaudeRun> {
  return runAsync(process.execPath, [KEEL, ...args], world.project, claudeEnv(world, serverUrl));
}

/** Every record of the world's audit log (~/.keel/audit), oldest file first. */
export function auditRecords(world: World): Array<Record<string, unknown>> {
  const dir = join(world.home, ".keel", "audit");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .flatMap((name) => readFileSync(join(dir, name), "utf8").split("\n"))
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The records of Claude Code's newest session transcript in the world's home (~/.claude/projects). */
export function latestTranscript(world: World): Array<Record<string, unknown>> {
  const root = join(world.home, ".claude", "projects");
  if (!existsSync(root)) return [];
  const files = readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl") && !name.includes("/subagents/"))
    .map((name) => join(root, name))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
  const newest = files.at(-1);
  if (!newest) return [];
  return readFileSync(newest, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}
