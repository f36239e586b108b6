// `keel hooks`: the configured hooks with their event, matcher, source and file, plus what an untrusted
// project asked for and did not get.
import type { Command } from "commander";
import { type ConfiguredHook, defaultTimeoutSeconds, hookDisplayName } from "../../hooks/config.ts";
import type { LoadedSettings } from "../../settings/load.ts";
import { processIO } from "../io.ts";
import { loadCliSettings, type PolicyFlags } from "../session.ts";
import { withPolicyOptions } from "./policyOptions.ts";

export function hooksReport(loaded: LoadedSettings) {
  return {
    projectRoot: loaded.projectRoot,
    trusted: loaded.trusted,
    hooks: loaded.hooks.map((hook: ConfiguredHook) => ({
      event: hook.event,
      matcher: hook.matcher === "" ? "*" : hook.matcher,
      ...(hook.handler.if ? { if: hook.handler.if } : {}),
      type: hook.handler.type,
      run: hookDisplayName(hook.handler),
      timeoutSeconds: hook.handler.timeout ?? defaultTimeoutSeconds(hook.event),
      source: hook.source,
      file: hook.file ?? "command line",
    })),
    notLoaded: loaded.untrusted.filter((report) => report.ignored.some((part) => part.startsWith("hooks"))),
    warnings: loaded.warnings.filter((warning) => /hook/i.test(warning)),
  };
}

export function formatHooksReport(report: ReturnType<typeof hooksReport>): string {
  const lines: string[] = [];
  if (report.hooks.length === 0) lines.push("No hooks are configured.");
  let event = "";
  for (const hook of report.hooks) {
    if (hook.event !== event) {
      event = hook.event;
      lines.push(event);
    }
    const condition = hook.if ? ` if ${hook.if}` : "";
    lines.push(
      `  [${hook.matcher}]${condition}  ${hook.run}  (${hook.timeoutSeconds}s, ${hook.source}: ${hook.file})`,
    );
  }
  for (const skipped of report.notLoaded)
    lines.push(
      `Not loaded (folder not trusted): hooks in ${skipped.file}. Run \`keel trust\` to allow them.`,
    );
  for (const warning of report.warnings) if (!/not trusted/.test(warning)) lines.push(`Note: ${warning}`);
  return `${lines.join("\n")}\n`;
}

export function register(program: Command): void {
  withPolicyOptions(program.command("hooks").description("List the configured hooks with their source"))
    .option("--json", "print JSON")
    .action((options: PolicyFlags & { json?: boolean }) => {
      const report = hooksReport(loadCliSettings(options, processIO()));
      process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatHooksReport(report));
    });
}
