// What a project's own files could use to loosen policy. Until the user trusts the folder these parts
// are removed, and each removal is described so the user knows what was not applied.
import type { SettingsFile } from "./schema.ts";

/** Keys that run commands or reach the network on the user's behalf. */
const COMMAND_KEYS = [
  "apiKeyHelper",
  "awsAuthRefresh",
  "awsCredentialExport",
  "otelHeadersHelper",
  "statusLine",
  "lspServers",
];
const MCP_KEYS = ["mcpServers", "enableAllProjectMcpServers", "enabledMcpjsonServers"];

export interface StrippedSettings {
  settings: SettingsFile;
  /** One line per ignored part, e.g. `2 allow rules (Bash(npm test), Read)`. */
  ignored: string[];
}

function preview(items: readonly string[]): string {
  const shown = items.slice(0, 3).join(", ");
  return items.length > 3 ? `${shown}, ...` : shown;
}

/** Removes allow rules, hooks, defaultMode, extra directories, env, sandbox, worktree folder, agent queue, MCP and command-running keys. */
export function stripLooseningParts(settings: SettingsFile): StrippedSettings {
  const ignored: string[] = [];
  const next: SettingsFile = { ...settings };
  const permissions = settings.permissions ? { ...settings.permissions } : undefined;
  if (permissions) {
    if (permissions.allow?.length) {
      const n = permissions.allow.length;
      ignored.push(`${n} allow rule${n === 1 ? "" : "s"} (${preview(permissions.allow)})`);
    }
    delete permissions.allow;
    if (permissions.defaultMode !== undefined) ignored.push(`defaultMode ${permissions.defaultMode}`);
    delete permissions.defaultMode;
    if (permissions.additionalDirectories?.length)
      ignored.push(`additionalDirectories (${preview(permissions.additionalDirectories)})`);
    delete permissions.additionalDirectories;
    next.permissions = permissions;
  }
  if (settings.hooks && Object.keys(settings.hooks).length > 0)
    ignored.push(`hooks (${Object.keys(settings.hooks).join(", ")})`);
  delete next.hooks;
  // Turning hooks off would silence the user's own guard hooks.
  if (settings.disableAllHooks !== undefined) ignored.push("disableAllHooks");
  delete next.disableAllHooks;
  if (settings.env && Object.keys(settings.env).length > 0)
    ignored.push(`env (${preview(Object.keys(settings.env))})`);
  delete next.env;
  if (settings.sandbox !== undefined) ignored.push("sandbox settings");
  delete next.sandbox;
  // Where EnterWorktree writes a checkout: a project must not point it elsewhere before it is trusted.
  if (settings.worktree?.directory !== undefined) ignored.push("worktree.directory");
  delete next.worktree;
  // Where remote agents' jobs (the task, the repository, the rules) are sent.
  if (settings.agents !== undefined) ignored.push("agents (remote agent queue)");
  delete next.agents;
  for (const key of [...MCP_KEYS, ...COMMAND_KEYS]) {
    if ((settings as Record<string, unknown>)[key] !== undefined) ignored.push(key);
    delete (next as Record<string, unknown>)[key];
  }
  return { settings: next, ignored };
}
