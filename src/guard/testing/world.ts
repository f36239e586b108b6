// Test helpers for keel hook: a temporary home (the agent's and Keel's) and project with settings files,
// the recorded Claude Code events with their placeholders filled in, and the audit records written.
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
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { HookAuditRecord } from "../auditRecord.ts";
import type { HookOptions } from "../types.ts";

export interface HookWorld {
  base: string;
  home: string;
  project: string;
  /** Outside the project: reads there ask. */
  outside: string;
  env: NodeJS.ProcessEnv;
  auditDir: string;
  options(extra?: Partial<HookOptions>): HookOptions;
  /** Audit records written so far, oldest first. */
  audit(): HookAuditRecord[];
  cleanup(): void;
}

export interface WorldSettings {
  /** ~/.claude/settings.json */
  claudeUser?: unknown;
  /** <project>/.claude/settings.json */
  claudeProject?: unknown;
  /** ~/.keel/settings.json */
  keelUser?: unknown;
}

const FILES: Record<string, string> = {
  "README.md": "# demo\nhello\n",
  "src/app.ts": "export const answer = 42;\n",
  "secrets/key.txt": "not for models\n",
  "nb.ipynb": '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n',
  "build/out.txt": "built\n",
  ".git/config": "[core]\n",
};

/** A string is written as it is (a broken settings file); anything else as JSON. */
function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`);
}

export function createHookWorld(settings: WorldSettings = {}): HookWorld {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "keel-hook-")));
  const home = join(base, "home");
  const project = join(base, "project");
  const outside = join(base, "outside");
  mkdirSync(home, { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "notes.txt"), "outside\n");
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), content);
  }
  if (settings.claudeUser) writeJson(join(home, ".claude", "settings.json"), settings.claudeUser);
  if (settings.claudeProject) writeJson(join(project, ".claude", "settings.json"), settings.claudeProject);
  if (settings.keelUser) writeJson(join(home, ".keel", "settings.json"), settings.keelUser);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    KEEL_DECISION_SERVER: "off",
    HOME: home,
    KEEL_HOME: home,
    KEEL_MANAGED_SETTINGS: join(base, "no-managed-settings.json"),
  };
  const auditDir = join(home, ".keel", "audit");
  return {
    base,
    home,
    project,
    outside,
    env,
    auditDir,
    options: (extra = {}) => ({ env, auditDir, ...extra }),
    audit: () =>
      existsSync(auditDir)
        ? readdirSync(auditDir)
            .sort()
            .flatMap((name) => readFileSync(join(auditDir, name), "utf8").split("\n"))
            .filter((line) => line.trim() !== "")
            .map((line) => JSON.parse(line) as HookAuditRecord)
        : [],
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

export type RecordedEvent = Record<string, unknown> & {
  hook_event_name: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
};

const RECORDED = new URL("../fixtures/claude-code-2.1.332.jsonl", import.meta.url);

/** The events recorded from Claude Code 2.1.332 (scripts/record-claude-code-events.ts), set in this world. */
export function recordedClaudeCodeEvents(world: HookWorld): RecordedEvent[] {
  return readFileSync(RECORDED, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(
      (line) =>
        JSON.parse(
          line.split("$PROJECT").join(world.project).split("$HOME").join(world.home),
        ) as RecordedEvent,
    );
}

/** The recorded event of this hook event and tool (the first, or the one whose input matches). */
export function recordedEvent(
  events: readonly RecordedEvent[],
  hookEvent: string,
  tool: string,
  matches: (input: Record<string, unknown>) => boolean = () => true,
): RecordedEvent {
  const found = events.find(
    (event) => event.hook_event_name === hookEvent && event.tool_name === tool && matches(event.tool_input),
  );
  if (!found) throw new Error(`no recorded ${hookEvent} event for ${tool}`);
  return structuredClone(found);
}
