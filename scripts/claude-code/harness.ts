// The real Claude Code CLI, driven by Keel's scripted Anthropic server: installed from npm into a cache
// folder (never a dependency of Keel), run in `-p` mode in a temporary home and project with a dummy key.
// Used by scripts/claude-code-e2e.ts and scripts/record-claude-code-events.ts.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import { join } from "node:path";
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
    // Keel's decision servers (started by the hook's first call) listen in the world's own folder.
    XDG_RUNTIME_DIR: join(world.base, "run"),
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

/** `claude -p <prompt>` in the project; asynchronous, so the scripted server in this process can answer. */
export function runClaude(
  binary: string,
  world: World,
  env: NodeJS.ProcessEnv,
  prompt: string,
  extra: string[] = [],
): Promise<ClaudeRun> {
  return runClaudeArgs(binary, world, env, [
    "-p",
    prompt,
    "--output-format",
    "json",
    "--model",
    "claude-sonnet-4-5",
    ...extra,
  ]);
}

/** `claude <args>` in the project, killed after 3 minutes. */
export function runClaudeArgs(
  binary: string,
  world: World,
  env: NodeJS.ProcessEnv,
  args: readonly string[],
): Promise<ClaudeRun> {
  return new Promise((resolve) => {
    const child = spawn(binary, [...args], { cwd: world.project, env, stdio: ["ignore", "pipe", "pipe"] });
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
