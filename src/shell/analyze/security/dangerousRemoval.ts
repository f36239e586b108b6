// Removing /, the home folder (or a folder above it) or a system folder asks in every mode, bypass
// included. Relative targets are resolved by path validation, which calls criticalRemovalReason too.

import { userInfo } from "node:os";
import { dirname, resolve, sep } from "node:path";
import { SYSTEM_FOLDERS } from "../../../permissions/paths.ts";
import { commandFormsForDenyRules } from "../denyForms.ts";
import { REMOVERS } from "../programs.ts";
import type { CommandCheck } from "./types.ts";

/** Recursive permission or owner changes on these folders break the system as surely as removal. */
const RECURSIVE_CHANGERS = new Set(["chmod", "chown", "chgrp"]);

let accountHome: string | undefined;

/** This account's home as the system records it (not $HOME, which a caller may set to anything). */
function accountHomeFolder(): string {
  if (accountHome === undefined) {
    try {
      accountHome = userInfo().homedir;
    } catch {
      accountHome = sep;
    }
  }
  return accountHome;
}

/**
 * Why removing this absolute path would be catastrophic, or undefined. `callerHome`: the caller's $HOME,
 * judged beside the account's own home.
 */
export function criticalRemovalReason(absolute: string, callerHome?: string): string | undefined {
  const path = resolve(absolute);
  if (path === sep) return "removing / deletes the whole system";
  for (const home of new Set([accountHomeFolder(), ...(callerHome ? [callerHome] : [])])) {
    const homePath = resolve(home);
    if (homePath === sep) continue;
    if (path === homePath) return "removing the home folder deletes every user file";
    if (homePath.startsWith(path + sep)) return `removing ${path} deletes the home folder`;
  }
  // Every top-level folder (/home, /tmp and /mnt too) and the system folders themselves.
  if (SYSTEM_FOLDERS.includes(path) || dirname(path) === sep)
    return `removing ${path} deletes a system folder`;
  if (SYSTEM_FOLDERS.includes(dirname(path))) return `removing ${path} deletes part of the system`;
  return undefined;
}

/** Arguments of a removal as written: `/`, `/*`, `~`, `~/`, `$HOME`, `"${HOME}"/*`... */
function writtenTargetReason(text: string, value: string, tilde: boolean): string | undefined {
  if (/^\$\{?HOME\}?\/*\.?(\/\*)?$/.test(text.replace(/"/g, "")))
    return "removing $HOME deletes every user file";
  if (tilde && /^~\/*\.?(\/\*|\*)?$/.test(value)) return "removing ~ deletes every user file";
  if (value.startsWith("/")) {
    const withoutGlob = value.replace(/\/\*$/, "").replace(/\*$/, "") || "/";
    const reason = criticalRemovalReason(withoutGlob);
    if (reason) return reason;
    if (value !== withoutGlob && criticalRemovalReason(`${withoutGlob}/x`))
      return `removing everything in ${withoutGlob}`;
  }
  return undefined;
}

export const dangerousRemoval: CommandCheck = {
  id: "dangerous-removal",
  stage: "command",
  severity: "safety",
  description: "rm and friends aimed at /, the home folder or system folders (asks even in bypass mode)",
  run: (view) => {
    const written = view.written.simple.argv;
    if (written.includes("--no-preserve-root")) return "--no-preserve-root allows removing /";
    // Every wrapper-stripped form (sudo, xargs, env...) is a suffix of what was written.
    for (const form of commandFormsForDenyRules(written)) {
      const name = form[0] ?? "";
      const finding = name === "find" && form.includes("-delete");
      const recursive = form.some((arg) => /^-[a-zA-Z]*[rR]/.test(arg) || arg === "--recursive");
      const changer = RECURSIVE_CHANGERS.has(name) && recursive;
      if (!REMOVERS.has(name) && !finding && !changer) continue;
      const offset = written.length - form.length;
      for (let i = offset + 1; i < view.written.words.length; i++) {
        const word = view.written.words[i];
        if (!word || (word.value.startsWith("-") && !finding)) continue;
        // A recursive removal of a path known only at run time could be anything, / included.
        if (word.dynamic && recursive && !changer)
          return `${name} -r removes ${word.text}, a path only known at run time`;
        const reason = writtenTargetReason(word.text, word.value, word.tilde);
        if (reason) return changer ? reason.replace("removing", `${name} -R on`) : reason;
      }
    }
    return undefined;
  },
  examples: {
    trigger: [
      "rm -rf $DIR",
      "chmod -R 777 /",
      "chown -R nobody ~",
      "rm -rf /",
      "rm -rf /*",
      "rm -rf ~",
      "rm -rf ~/",
      "rm -fr $HOME",
      'rm -rf "$HOME"',
      "rm -rf /usr",
      "rm -rf /etc/ssl",
      "sudo rm -rf /",
      "rm --no-preserve-root -rf /",
      "find / -delete",
      "/bin/rm -rf /",
      "rmdir /home",
      "rm -rf /home/*",
    ],
    pass: [
      "rm -rf ./dist",
      "rm -rf node_modules",
      "rm /tmp/x.txt",
      "rm -rf ~/project/build",
      "find . -delete",
    ],
  },
};
