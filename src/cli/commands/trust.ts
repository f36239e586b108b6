// `keel trust [dir]`: trust a project folder so its own allow rules, hooks, mode, env and MCP servers
// apply; `--list` shows trusted folders, `--revoke` forgets one.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { loadSettings } from "../../settings/load.ts";
import { SettingsError } from "../../settings/readSettingsFile.ts";
import {
  findTrustingFolder,
  listTrustedFolders,
  revokeFolderTrust,
  trustFolder,
  userConfigPath,
} from "../../settings/trust.ts";
import { CliError } from "../exitCodes.ts";
import type { CliRuntime } from "../main.ts";

interface TrustFlags {
  list?: boolean;
  revoke?: boolean;
  json?: boolean;
}

export function register(program: Command, runtime: CliRuntime): void {
  program
    .command("trust")
    .description(
      "Trust a project folder (default: the current one): its own allow rules, hooks, mode and env then apply",
    )
    .argument("[dir]", "the project folder")
    .option("--list", "list trusted folders")
    .option("--revoke", "stop trusting the folder")
    .option("--json", "print JSON")
    .action((dir: string | undefined, options: TrustFlags) => {
      const { out, env, cwd } = runtime.io;
      if (options.list) {
        const folders = listTrustedFolders(env);
        if (options.json) out(`${JSON.stringify(folders, null, 2)}\n`);
        else if (folders.length === 0) out("No folder is trusted.\n");
        else for (const entry of folders) out(`${entry.folder}  (since ${entry.trustedAt})\n`);
        return;
      }
      const folder = resolve(cwd, dir ?? ".");
      if (options.revoke) {
        const revoked = revokeFolderTrust(folder, env);
        const parent = findTrustingFolder(folder, env);
        if (options.json)
          out(`${JSON.stringify({ folder, revoked, stillTrustedThrough: parent ?? null })}\n`);
        else if (!revoked)
          out(`${folder} was not trusted on its own${parent ? ` (it is inside trusted ${parent})` : ""}.\n`);
        else out(`${folder} is no longer trusted${parent ? `, but it is inside trusted ${parent}` : ""}.\n`);
        return;
      }
      requireFolder(folder);
      let ignored: Array<{ file: string; ignored: string[] }> = [];
      try {
        ignored = loadSettings({ cwd: folder, env }).untrusted;
      } catch (error) {
        if (error instanceof SettingsError)
          throw new CliError(`not trusting ${folder} yet: ${error.message}`);
        throw error;
      }
      const trusted = trustFolder(folder, env);
      const storedIn = userConfigPath(env);
      if (options.json) {
        out(`${JSON.stringify({ folder: trusted, storedIn, nowApplied: ignored }, null, 2)}\n`);
        return;
      }
      out(`Trusted ${trusted} (remembered in ${storedIn}; undo with \`keel trust --revoke ${trusted}\`).\n`);
      for (const report of ignored) out(`  now applied from ${report.file}: ${report.ignored.join("; ")}\n`);
    });
}

/** Trust is for a project folder that exists: a typo must not be remembered as trusted. */
function requireFolder(folder: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(folder).isDirectory();
  } catch {
    throw new CliError(
      `${folder} does not exist. Give the project folder to trust (default: the current one).`,
    );
  }
  if (!isDirectory) throw new CliError(`${folder} is not a folder. Give the project folder to trust.`);
}
