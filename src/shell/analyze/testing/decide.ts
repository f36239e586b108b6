// Test helper: the whole decision on a Bash call (rules, mode, the analyzer's safety checks) through
// the real Bash tool and permission engine, in a test project.
import { decidePermission } from "../../../permissions/engine.ts";
import type { PermissionMode } from "../../../permissions/types.ts";
import { createToolUseContext } from "../../../tool/createContext.ts";
import { BashTool } from "../../../tools/bash/BashTool.ts";

export interface DecideOptions {
  mode?: PermissionMode;
  allow?: readonly string[];
  deny?: readonly string[];
  ask?: readonly string[];
}

/** allow, ask or deny for `command` run in `root` (the project) with these rules and mode. */
export async function decideBash(
  root: string,
  command: string,
  options: DecideOptions = {},
): Promise<string> {
  const context = createToolUseContext({
    tools: [BashTool],
    cwd: root,
    mode: options.mode ?? "default",
    allow: [...(options.allow ?? [])],
    deny: [...(options.deny ?? [])],
    ask: [...(options.ask ?? [])],
    ruleSource: "project",
  });
  return (await decidePermission(BashTool, { command }, context)).behavior;
}
