// `keel permissions`: the effective policy — mode, working directories, and every rule with the source
// and file it came from, in the order the engine reads them (deny, ask, allow).
import type { Command } from "commander";
import { listMalformedRules } from "../../permissions/matchers.ts";
import { MODE_DESCRIPTIONS } from "../../permissions/modes.ts";
import { RULE_SOURCES, type RuleBehavior, type RuleSource } from "../../permissions/types.ts";
import type { LoadedSettings } from "../../settings/load.ts";
import { loadAllBuiltinTools } from "../../tools/catalog.ts";
import { processIO } from "../io.ts";
import { loadCliSettings, type PolicyFlags } from "../session.ts";
import { withPolicyOptions } from "./policyOptions.ts";

export interface EffectiveRule {
  behavior: RuleBehavior;
  rule: string;
  source: RuleSource;
  /** The settings file, or "command line". */
  origin: string;
}

function originOf(loaded: LoadedSettings, behavior: RuleBehavior, source: RuleSource, rule: string): string {
  const entry = loaded.sources.find(
    (candidate) => candidate.source === source && candidate.settings.permissions?.[behavior]?.includes(rule),
  );
  return entry?.file ?? (source === "cliArg" ? "command line" : `${source} settings`);
}

export function effectiveRules(loaded: LoadedSettings): EffectiveRule[] {
  const context = loaded.permissionContext;
  const rules: EffectiveRule[] = [];
  for (const behavior of ["deny", "ask", "allow"] as const) {
    const bySource =
      behavior === "deny"
        ? context.alwaysDenyRules
        : behavior === "ask"
          ? context.alwaysAskRules
          : context.alwaysAllowRules;
    for (const source of RULE_SOURCES) {
      for (const rule of bySource[source] ?? [])
        rules.push({ behavior, rule, source, origin: originOf(loaded, behavior, source, rule) });
    }
  }
  return rules;
}

export function permissionsReport(loaded: LoadedSettings) {
  const context = loaded.permissionContext;
  return {
    projectRoot: loaded.projectRoot,
    trusted: loaded.trusted,
    mode: context.mode,
    bypassPermissionsAvailable: context.isBypassPermissionsModeAvailable,
    workingDirectories: [
      { path: context.projectRoot, source: "project root" },
      ...context.additionalWorkingDirectories.map((dir) => ({ path: dir.path, source: dir.source })),
    ],
    sandbox: context.sandbox,
    rules: effectiveRules(loaded),
    malformedRules: listMalformedRules(context),
    warnings: loaded.warnings,
  };
}

export function formatPermissionsReport(report: ReturnType<typeof permissionsReport>): string {
  const lines = [
    `Project: ${report.projectRoot} (${report.trusted ? "trusted" : "not trusted: its allow rules, mode, hooks and env are ignored"})`,
    `Mode: ${report.mode} — ${MODE_DESCRIPTIONS[report.mode]}${report.bypassPermissionsAvailable ? "" : " (bypassPermissions is disabled)"}`,
    "Working directories:",
    ...report.workingDirectories.map((dir) => `  ${dir.path}  (${dir.source})`),
  ];
  if (report.sandbox.enabled)
    lines.push(
      `Sandbox: on${report.sandbox.autoAllowBashIfSandboxed ? ", sandboxed Bash runs without asking" : ""}`,
    );
  for (const behavior of ["deny", "ask", "allow"] as const) {
    const rules = report.rules.filter((rule) => rule.behavior === behavior);
    lines.push(`${behavior.toUpperCase()} rules${rules.length ? "" : ": none"}`);
    const width = Math.max(0, ...rules.map((rule) => rule.rule.length));
    for (const rule of rules)
      lines.push(`  ${rule.rule.padEnd(width)}  ${rule.source.padEnd(7)}  ${rule.origin}`);
  }
  for (const bad of report.malformedRules)
    lines.push(`Ignored malformed ${bad.behavior} rule (${bad.source}): ${bad.error}`);
  if (report.warnings.length) lines.push("Notes:", ...report.warnings.map((warning) => `  ${warning}`));
  lines.push("Order: deny, then ask, then allow; `keel check <Tool> '<json>'` explains one decision.");
  return `${lines.join("\n")}\n`;
}

export function register(program: Command): void {
  withPolicyOptions(
    program
      .command("permissions")
      .description(
        "List the effective permission rules with their source, the mode and the working directories",
      ),
  )
    .option("--json", "print JSON")
    .action(async (options: PolicyFlags & { json?: boolean }) => {
      const report = permissionsReport(loadCliSettings(options, processIO(), await loadAllBuiltinTools()));
      process.stdout.write(
        options.json ? `${JSON.stringify(report, null, 2)}\n` : formatPermissionsReport(report),
      );
    });
}
