// `keel doctor`: what a session here would need, checked and explained, each problem with its fix.
// Exit 1 when something is broken (a settings file, an MCP server, a missing sandbox that settings turn
// on...), 0 when there are only warnings.
import type { Command } from "commander";
import { lspOptionsFromSettings } from "../../lsp/servers.ts";
import { builtinTools } from "../../tools/builtinTools.ts";
import {
  checkConfinement,
  checkDecisionServer,
  checkLanguageServers,
  checkNode,
  checkRipgrep,
  checkSandbox,
  type Finding,
} from "../doctor/checks.ts";
import { checkMcpServers, checkProvider, checkSettingsFiles, checkTrust } from "../doctor/configChecks.ts";
import { checkRemoteQueue } from "../doctor/remoteCheck.ts";
import { EXIT } from "../exitCodes.ts";
import type { CliRuntime } from "../main.ts";
import { projectDirFrom } from "../projectDir.ts";
import { loadCliSettings } from "../session.ts";

interface DoctorFlags {
  cwd?: string;
  json?: boolean;
  mcp?: boolean;
}

const MARK = { ok: "ok  ", warn: "warn", fail: "FAIL" } as const;

async function diagnose(flags: DoctorFlags): Promise<{ projectRoot: string; findings: Finding[] }> {
  const env = process.env;
  const projectRoot = projectDirFrom(flags, process.cwd());
  const tools = builtinTools();
  const findings: Finding[] = [
    ...checkNode(env),
    ...(await checkRipgrep()),
    ...(await checkDecisionServer(env)),
  ];
  findings.push(...checkSettingsFiles(projectRoot, env, tools));
  let settings: ReturnType<typeof loadCliSettings> | undefined;
  try {
    settings = loadCliSettings({ cwd: projectRoot }, { cwd: projectRoot, env }, tools);
  } catch {
    // Reported file by file above; what depends on the merged settings is skipped.
  }
  findings.push(...checkConfinement(), ...checkSandbox(settings?.sandbox.enabled === true));
  if (!settings) {
    findings.push({
      area: "settings",
      status: "fail",
      summary:
        "trust, model provider, language servers and MCP servers were not checked: the settings do not load",
      fix: "Fix the settings files above, then run keel doctor again.",
    });
    return { projectRoot, findings };
  }
  findings.push(...checkTrust(settings, env), ...checkProvider(settings, env));
  const lsp = lspOptionsFromSettings(settings, { startOnFileUse: false });
  findings.push(...checkLanguageServers(projectRoot, settings.lspServers, lsp.useProjectTypeScript === true));
  findings.push(...(await checkRemoteQueue(settings, env)));
  if (flags.mcp !== false) findings.push(...(await checkMcpServers(settings, env)));
  return { projectRoot, findings };
}

function format(projectRoot: string, findings: readonly Finding[]): string {
  const lines = [`keel doctor: ${projectRoot}`];
  for (const finding of findings) {
    lines.push(`${MARK[finding.status]}  ${finding.area.padEnd(8)} ${finding.summary}`);
    if (finding.fix && finding.status !== "ok") lines.push(`${" ".repeat(15)}fix: ${finding.fix}`);
  }
  const failed = findings.filter((finding) => finding.status === "fail").length;
  const warned = findings.filter((finding) => finding.status === "warn").length;
  lines.push(
    failed > 0
      ? `${failed} problem${failed === 1 ? "" : "s"} to fix${warned ? `, ${warned} warning${warned === 1 ? "" : "s"}` : ""}.`
      : warned > 0
        ? `Nothing broken; ${warned} warning${warned === 1 ? "" : "s"}.`
        : "Everything checked is fine.",
  );
  return `${lines.join("\n")}\n`;
}

export function register(program: Command, runtime: CliRuntime): void {
  program
    .command("doctor")
    .description(
      "Check Node, ripgrep, the sandbox's bubblewrap/socat, every settings file, trust, the model provider, language servers and MCP servers; each problem with its fix",
    )
    .option("--cwd <dir>", "project directory to check (default: current directory)")
    .option("--no-mcp", "do not start the configured MCP servers")
    .option("--json", "print the findings as JSON")
    .addHelpText("after", "\nExit codes: 0 nothing broken (warnings allowed), 1 something is broken.")
    .action(async (flags: DoctorFlags) => {
      const { projectRoot, findings } = await diagnose(flags);
      process.stdout.write(
        flags.json
          ? `${JSON.stringify({ projectRoot, findings }, null, 2)}\n`
          : format(projectRoot, findings),
      );
      runtime.setExitCode(findings.some((finding) => finding.status === "fail") ? 1 : EXIT.ok);
    });
}
