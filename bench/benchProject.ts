// The project and home the whole-process benches run keel in: a policy in the files Claude Code reads
// (every rule family checked on each call), so the user's own settings and audit log play no part.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface BenchProject {
  base: string;
  project: string;
  env: NodeJS.ProcessEnv;
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
  const env = { ...process.env, KEEL_HOME: home, HOME: home, KEEL_MANAGED_SETTINGS: join(base, "none.json") };
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
  return { base, project, env, hookEvent };
}
