// `keel doctor`, the machine: Node, ripgrep, what the Bash sandbox needs, language servers. Each check
// reports what it found and, for a problem, the fix; nothing here changes anything.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { definitionFor, definitionFromSettings, type LspServerEntry } from "../../lsp/servers.ts";
import {
  CONFINEMENT_INSTALL_HINT,
  confinementAvailability,
} from "../../shell/sandbox/confinementAvailability.ts";
import { errorMessage } from "../../tool/errors.ts";
import { ripgrepPath } from "../../tools/search-shared/ripgrep.ts";
import { SERVER_SWITCH, serverDir, serverEnabled } from "../decisionServer/address.ts";
import { listServers, recentLogLines } from "../decisionServer/control.ts";

export type FindingStatus = "ok" | "warn" | "fail";

export interface Finding {
  area: string;
  status: FindingStatus;
  summary: string;
  /** What to do about a warn or fail. */
  fix?: string;
}

const ok = (area: string, summary: string): Finding => ({ area, status: "ok", summary });
const problem = (area: string, status: "warn" | "fail", summary: string, fix: string): Finding => ({
  area,
  status,
  summary,
  fix,
});

/** The Node running Keel; a relaunch from an older Node (bin/relaunch.js) costs a start per command. */
export function checkNode(env: NodeJS.ProcessEnv = process.env): Finding[] {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 22)
    return [problem("node", "fail", `Node ${process.version} is too old`, "Install Node 22 or newer.")];
  const findings = [ok("node", `Node ${process.version} (${process.execPath})`)];
  const from = env.KEEL_RELAUNCHED_FROM;
  if (from)
    findings.push(
      problem(
        "node",
        "warn",
        `keel was started by Node ${from} and runs again on the pinned Node: one more Node start per command`,
        "Put Node 22 or newer first on PATH (https://nodejs.org, or `nvm install 22`).",
      ),
    );
  return findings;
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}

/** The rg Grep and Glob use, its version, and whether it has PCRE2 (look-around, backreferences). */
export async function checkRipgrep(): Promise<Finding[]> {
  let rg: string;
  try {
    rg = await ripgrepPath();
  } catch {
    return [
      problem(
        "ripgrep",
        "fail",
        "ripgrep (rg) was not found: Grep and Glob cannot run",
        "Reinstall Keel's dependencies (npm install), or install ripgrep so that `rg` is on PATH.",
      ),
    ];
  }
  const version = spawnSync(rg, ["--version"], { encoding: "utf8", timeout: 10_000 });
  if (version.status !== 0)
    return [problem("ripgrep", "fail", `${rg} does not run`, "Reinstall Keel's dependencies (npm install).")];
  const findings = [ok("ripgrep", `${firstLine(version.stdout)} (${rg})`)];
  if (!/\+pcre2/.test(version.stdout))
    findings.push(
      problem(
        "ripgrep",
        "warn",
        "this ripgrep has no PCRE2: Grep patterns with look-around or backreferences fail",
        "Use the rg bundled with Keel (@vscode/ripgrep, reinstall with npm install) or a ripgrep built with PCRE2.",
      ),
    );
  return findings;
}

function onPath(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = isAbsolute(command)
    ? [command]
    : (env.PATH ?? "")
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, command));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

/**
 * The confinement Bash calls no person approved run in (bubblewrap, whatever the sandbox settings):
 * without it, modes and allow rules can no longer approve commands whose writes Keel cannot name.
 */
export function checkConfinement(env: NodeJS.ProcessEnv = process.env): Finding[] {
  const availability = confinementAvailability(env);
  if (availability.available)
    return [
      ok(
        "confinement",
        `Bash calls no person approved run confined (${availability.bwrap}): protected paths read-only, so modes may approve what the analyzer cannot name`,
      ),
    ];
  const missing = availability.reason.includes(CONFINEMENT_INSTALL_HINT);
  return [
    problem(
      "confinement",
      "warn",
      `Bash calls cannot run confined here (${availability.reason.replace(`; ${CONFINEMENT_INSTALL_HINT}`, "")}): in bypassPermissions and acceptEdits mode, commands whose writes Keel cannot name (inline code, build tools, scripts) ask`,
      missing || process.platform === "linux"
        ? missing
          ? "Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)."
          : "Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or the AppArmor rule for bwrap), or run where they are allowed."
        : "Allow the commands you trust with rules such as Bash(npm test:*); the confinement needs Linux.",
    ),
  ];
}

/** What the Bash sandbox (`sandbox.enabled`) needs: bubblewrap that can start here, and socat. */
export function checkSandbox(enabled: boolean): Finding[] {
  if (process.platform !== "linux")
    return [ok("sandbox", `the OS sandbox is not checked on ${process.platform}`)];
  const level = enabled ? "fail" : "warn";
  const consequence = enabled
    ? "sandbox.enabled is set, so every Bash call fails"
    : "the Bash sandbox (sandbox.enabled) cannot be turned on, and its tests are skipped";
  const findings: Finding[] = [];
  const missing = ["bwrap", "socat"].filter((command) => !onPath(command));
  if (missing.length > 0)
    return [
      problem(
        "sandbox",
        level,
        `${missing.join(" and ")} not found: ${consequence}`,
        "Install them (Debian/Ubuntu: apt-get install bubblewrap socat).",
      ),
    ];
  const probe = spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-net", "true"], {
    encoding: "utf8",
    timeout: 10_000,
  });
  if (probe.status !== 0)
    findings.push(
      problem(
        "sandbox",
        level,
        `bubblewrap is installed but cannot start a sandbox here (${firstLine(probe.stderr) || `exit ${probe.status}`}): ${consequence}`,
        "Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or the AppArmor rule for bwrap), or run where they are allowed.",
      ),
    );
  else findings.push(ok("sandbox", `bubblewrap and socat work${enabled ? " (sandbox.enabled)" : ""}`));
  return findings;
}

/** Built-in TypeScript and Python servers are bundled; configured ones must be on PATH. */
export function checkLanguageServers(
  projectRoot: string,
  servers: readonly LspServerEntry[],
  useProjectTypeScript: boolean,
): Finding[] {
  const findings: Finding[] = [];
  const options = { servers: [], useProjectTypeScript };
  for (const [language, file] of [
    ["TypeScript/JavaScript", "x.ts"],
    ["Python", "x.py"],
  ] as const) {
    try {
      definitionFor(file, options).launch(projectRoot, options);
      findings.push(ok("lsp", `${language}: built-in language server installed`));
    } catch (error) {
      findings.push(
        problem(
          "lsp",
          "warn",
          `${language}: ${errorMessage(error)}`,
          "Reinstall Keel's dependencies (npm install).",
        ),
      );
    }
  }
  for (const entry of servers) {
    let command: string;
    try {
      command = definitionFromSettings(entry).launch(projectRoot, { servers }).command;
    } catch (error) {
      findings.push(
        problem("lsp", "fail", `${entry.name}: ${errorMessage(error)}`, "Fix the lspServers entry."),
      );
      continue;
    }
    const found = onPath(command);
    findings.push(
      found
        ? ok("lsp", `${entry.name}: ${found}`)
        : problem(
            "lsp",
            "fail",
            `${entry.name}: command "${command}" not found (lspServers.${entry.name}${entry.file ? ` in ${entry.file}` : ""})`,
            `Install ${command} and put it on PATH, or correct the command.`,
          ),
    );
  }
  return findings;
}

/** Whether `keel hook` / `keel check` can be answered by a decision server (decisionServer/). */
export async function checkDecisionServer(env: NodeJS.ProcessEnv = process.env): Promise<Finding[]> {
  if (!serverEnabled(env))
    return [
      ok(
        "daemon",
        `off (${SERVER_SWITCH}=${env[SERVER_SWITCH]}): hook and check calls decide in their own process`,
      ),
    ];
  if (serverDir(env) === undefined)
    return [
      problem(
        "daemon",
        "warn",
        "no private folder for the decision server's socket: every hook and check call loads Keel anew (~0.1 s)",
        `Let /run/user/${process.getuid?.() ?? "<uid>"} (or /tmp/keel-${process.getuid?.() ?? "<uid>"}) be a folder only you own, mode 700; remove a keel-<uid> folder someone else made.`,
      ),
    ];
  const servers = await listServers(env);
  const findings = [
    ok(
      "daemon",
      servers.length === 0
        ? "decision server: none running (the next hook or check call starts one)"
        : `decision server: ${servers.length} running (keel daemon status)`,
    ),
  ];
  for (const server of servers) {
    const trouble = recentLogLines(server.log, 3);
    if (trouble.length > 0)
      findings.push(
        problem(
          "daemon",
          "warn",
          `decision server pid ${server.pid} logged problems (${server.log}): ${trouble.join(" | ")}`,
          "Read the log; `keel daemon stop` ends the server (the next call starts a new one).",
        ),
      );
  }
  return findings;
}
