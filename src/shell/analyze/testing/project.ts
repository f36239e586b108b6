// Test helpers: a real temporary project folder and permission contexts rooted in it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { PermissionMode } from "../../../permissions/types.ts";
import {
  addRules,
  getEmptyToolPermissionContext,
  type ToolPermissionContext,
  updatePermissionContext,
} from "../../../tool/context.ts";
import { viewCommand } from "../commandView.ts";
import { extractEveryCommand } from "../grammar/everyCommand.ts";
import { withBashTree } from "../grammar/parse.ts";
import { indexTree } from "../grammar/tree.ts";
import type { SecurityCheck } from "../security/types.ts";

export interface TestProject {
  root: string;
  /** A folder outside the project, standing in for places like $HOME. */
  outside: string;
  cleanup(): void;
}

const FILES: Record<string, string> = {
  "README.md": "# Project\nInstall with npm install\n",
  "package.json": '{ "name": "project", "version": "1.0.0", "scripts": { "test": "vitest" } }\n',
  "src/index.ts": "export const x = 1; // TODO\n",
  "src/app.ts": "export const app = 2;\n",
  "src/config.json": '{ "version": "1.2.3" }\n',
  "src/appsettings.json": '{ "ConnectionString": "x" }\n',
  "scripts/build.sh": "echo build\n",
  "tests/unit/a.test.ts": "test\n",
  "foo.txt": "foo\n",
  "input.txt": "a\na\nb\n",
  ".env": "SECRET=1\n",
};

/** A project with ordinary files, and a sibling folder outside it. */
export function createTestProject(): TestProject {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "keel-bash-")));
  const root = join(base, "project");
  const outside = join(base, "outside");
  mkdirSync(outside, { recursive: true });
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  mkdirSync(join(root, ".claude"), { recursive: true });
  mkdirSync(join(root, ".git"), { recursive: true });
  return { root, outside, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export interface ContextOptions {
  mode?: PermissionMode;
  allow?: readonly string[];
  deny?: readonly string[];
  ask?: readonly string[];
  sandbox?: boolean;
  /** Whether Bash calls can run confined; default true (the analysis where bubblewrap works). */
  confinement?: boolean;
}

export function contextFor(root: string, options: ContextOptions = {}): ToolPermissionContext {
  let context = updatePermissionContext(getEmptyToolPermissionContext(root), {
    mode: options.mode ?? "default",
    sandbox: {
      enabled: options.sandbox ?? false,
      autoAllowBashIfSandboxed: true,
      confinement: options.confinement ?? true,
    },
  });
  if (options.allow?.length) context = addRules(context, "allow", "project", options.allow);
  if (options.deny?.length) context = addRules(context, "deny", "project", options.deny);
  if (options.ask?.length) context = addRules(context, "ask", "project", options.ask);
  return context;
}

/** Runs one check alone on a command: its reason, or undefined. The parser must be initialised. */
export function runCheckAlone(check: SecurityCheck, command: string): string | undefined {
  if (check.stage === "text") return check.run(command);
  if (check.stage === "syntax") return withBashTree(command, (root) => check.run(indexTree(root, command)));
  const commands = withBashTree(command, (root) => extractEveryCommand(root, command));
  for (const extracted of commands) {
    const reason = check.run(viewCommand(extracted));
    if (reason !== undefined) return reason;
  }
  return undefined;
}
