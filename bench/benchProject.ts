// The project and home the whole-process benches run keel in: a policy in the files Claude Code reads
// (every rule family checked on each call), so the user's own settings and audit log play no part.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stopServers, waitForServer } from "../src/cli/decisionServer/control.ts";

export interface BenchProject {
  base: string;
  project: string;
  /** Calls may be answered by a decision server (its socket in the bench's own private folder). */
  env: NodeJS.ProcessEnv;
  /** Every call decides in its own process (KEEL_DECISION_SERVER=off): what a first call costs. */
  localEnv: NodeJS.ProcessEnv;
  /** Starts this bench's decision server (by one call) and waits until it answers. */
  startServer(launcher: string): Promise<void>;
  /** Stops the bench's decision servers and removes its folder. */
  cleanup(): Promise<void>;
  /** A Claude Code PreToolUse event for this project, as `keel hook claude-code` reads it. */
  hookEvent(toolName: string, toolInput: Record<string, unknown>): string;
}

export function makeBenchProject(prefix: string, sourceFiles = 1): BenchProject {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const project = join(base, "project");
  const home = join(base, "home");
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(project, "README.md"), "# bench\n\nbuildTool is declared once.\n");
  for (let i = 0; i < sourceFiles; i++)
    writeFileSync(join(project, "src", `m${i}.ts`), `export const buildTool${i} = ${i};\n// buildTool\n`);
  writeFileSync(
    join(home, ".claude", "settings.json"),
    JSON.stringify({
      permissions: {
        allow: ["Bash(npm test:*)", "Glob"],
        deny: ["Read(./.env)", "Bash(rm:*)", "WebFetch(domain:evil.example)"],
        ask: ["Bash(git push:*)", "Write(./secrets/**)"],
      },
    }),
  );
  const runtime = join(base, "run");
  mkdirSync(runtime, { mode: 0o700 });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    KEEL_HOME: home,
    HOME: home,
    KEEL_MANAGED_SETTINGS: join(base, "none.json"),
    XDG_RUNTIME_DIR: runtime,
  };
  delete env.KEEL_DECISION_SERVER;
  const localEnv = { ...env, KEEL_DECISION_SERVER: "off" };
  const hookEvent = (toolName: string, toolInput: Record<string, unknown>) =>
    JSON.stringify({
      session_id: "bench",
      transcript_path: join(base, "transcript.jsonl"),
      cwd: project,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: "toolu_bench",
    });
  const startServer = async (launcher: string) => {
    spawnSync(process.execPath, [launcher, "check", "Read", "{}", "--cwd", project], { env, cwd: project });
    await waitForServer(env);
  };
  const cleanup = async () => {
    await stopServers(env);
    rmSync(base, { recursive: true, force: true });
  };
  return { base, project, env, localEnv, hookEvent, startServer, cleanup };
}
