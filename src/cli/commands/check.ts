// `keel check <Name> [json|-]`: the permission decision for a call, explained, without running it.
import type { Command } from "commander";
import { warmUpFor } from "../../guard/keelTools.ts";
import { callInSession, decide } from "../../permissions/decide.ts";
import { findBlanketRule } from "../../permissions/matchers.ts";
import {
  type DecisionReason,
  describeDecider,
  type PermissionRule,
  plainDecider,
  type RuleSuggestion,
} from "../../permissions/types.ts";
import { formatSchemaError, parseArguments } from "../../pipeline/input.ts";
import { didYouMean } from "../../tool/didYouMean.ts";
import { parseContext } from "../../tool/parseContext.ts";
import { findToolByName } from "../../tool/registry.ts";
import type { Tool } from "../../tool/Tool.ts";
import { CliError, EXIT } from "../exitCodes.ts";
import { readJsonInput } from "../input.ts";
import type { CliRuntime } from "../main.ts";
import { preferQuickStart } from "../quickStart.ts";
import { type CliSession, connectSessionMcp, openSession, type PolicyFlags } from "../session.ts";
import { withMcpOptions, withPolicyOptions } from "./policyOptions.ts";

export function register(program: Command, runtime: CliRuntime): void {
  withMcpOptions(
    withPolicyOptions(
      program
        .command("check")
        .description(
          "Explain the permission decision for a call (allow, ask or deny, and who decided) without running it",
        )
        .argument("<name>", "tool name")
        .argument("[input]", "JSON input, or - to read it from stdin"),
    ),
  )
    .option("--json", 'print {"behavior", "reason", "decidedBy", "details"...} as JSON')
    .option("--verbose", "text: also print what the checks found (the analyzer's parts, the paths)")
    .addHelpText(
      "after",
      "\nExit codes: 0 allow, 1 ask, 2 usage error (bad JSON, unknown tool, bad flags), 3 deny.\n" +
        "With the input given as an argument, the decision server answers after the first call (see keel\n" +
        "daemon --help); the decision is the same either way.",
    )
    .action(async (name: string, inputArg: string | undefined, options: CheckFlags) => {
      const raw = await readJsonInput(inputArg, runtime.io);
      preferQuickStart();
      // The Bash grammar compiles on background threads while the session's settings and tools load.
      warmUpFor([name]);
      const session = await connectSessionMcp(
        await openSession(options, { forTool: name, io: runtime.io }),
        options,
      );
      try {
        const behavior = await explain(session, name, raw, {
          json: options.json === true,
          verbose: options.verbose === true,
        });
        runtime.setExitCode(EXIT_FOR_DECISION[behavior]);
      } finally {
        session.close();
      }
    });
}

interface CheckFlags extends PolicyFlags {
  json?: boolean;
  verbose?: boolean;
}

/** `keel check`'s exit code says the decision, so scripts need not parse the output. */
export const EXIT_FOR_DECISION = { allow: EXIT.ok, ask: 1, deny: EXIT.refused } as const;

/** The tool a name means, even when a blanket deny rule hid it from the session's pool. */
function lookUp(session: CliSession, name: string): { tool: Tool; hiddenBy?: PermissionRule } {
  const pooled = findToolByName(session.context.options.tools, name);
  if (pooled) return { tool: pooled };
  const permissionContext = session.context.getAppState().toolPermissionContext;
  const known = findToolByName(session.builtins, name);
  const hiddenBy = known ? findBlanketRule(permissionContext, known, "deny") : undefined;
  if (known && hiddenBy) return { tool: known, hiddenBy };
  const names = session.context.options.tools.map((t) => t.name);
  throw new CliError(
    `No tool named "${name}"${didYouMean(name, names) || "."} Available tools: ${names.join(", ") || "(none)"}.`,
  );
}

interface CheckReport {
  behavior: "allow" | "ask" | "deny";
  reason: string;
  decidedBy: string;
  decisionReason: DecisionReason;
  suggestions?: RuleSuggestion[];
  details?: unknown;
}

/**
 * Text for a person: the decision with a one-line reason, who decided in plain words, the rules that
 * would stop the question; what the checks found only with --verbose (--json always has everything).
 */
export function formatCheckReport(report: CheckReport, verbose: boolean): string {
  const lines = [
    `${report.behavior.toUpperCase()}: ${oneLine(report.reason) || whyInWords(report.decisionReason, report.behavior)}`,
    `decided by: ${plainDecider(report.decisionReason)}`,
  ];
  for (const suggestion of report.suggestions ?? [])
    lines.push(`to stop the question: ${suggestion.behavior} rule ${suggestion.rule}`);
  if (verbose && report.details !== undefined)
    lines.push(`details: ${JSON.stringify(report.details, null, 2)}`);
  return `${lines.join("\n")}\n`;
}

const MAX_REASON_CHARS = 300;

/** The first line of a message, cut to a line's length. */
function oneLine(text: string): string {
  const first = text.trim().split("\n")[0]?.trim() ?? "";
  return first.length > MAX_REASON_CHARS ? `${first.slice(0, MAX_REASON_CHARS)}…` : first;
}

/** A reason when the decision came without a message: what the decider said, else who it was. */
function whyInWords(reason: DecisionReason, behavior: string): string {
  const said = "reason" in reason && typeof reason.reason === "string" ? oneLine(reason.reason) : "";
  return said || `${behavior} by the ${describeDecider(reason)}`;
}

async function explain(
  session: CliSession,
  name: string,
  raw: unknown,
  output: { json: boolean; verbose: boolean },
): Promise<"allow" | "ask" | "deny"> {
  const print = (report: CheckReport) =>
    session.io.out(
      output.json ? `${JSON.stringify(report, null, 2)}\n` : formatCheckReport(report, output.verbose),
    );
  const { tool, hiddenBy } = lookUp(session, name);
  if (hiddenBy) {
    const decisionReason = { type: "rule" as const, rule: hiddenBy };
    const decidedBy = describeDecider(decisionReason);
    print({
      behavior: "deny",
      reason: `${tool.name} is denied outright (and hidden from the model) by the ${decidedBy}`,
      decidedBy,
      decisionReason,
    });
    return "deny";
  }
  const parsed = parseArguments(raw);
  if (!parsed.ok) throw new CliError(`${tool.name}: ${parsed.message}`);
  const checked = tool.inputSchema.safeParse(parsed.value, parseContext());
  if (!checked.success) throw new CliError(formatSchemaError(tool.name, checked.error));
  // `keel check` reports an ask as such: it never asks anyone.
  const decision = await decide(callInSession(tool, checked.data, session.context, "nobody"));
  const details = tool.explainPermission
    ? await tool.explainPermission(checked.data, session.context)
    : undefined;
  print({
    behavior: decision.behavior,
    reason: decision.message ?? "",
    decidedBy: describeDecider(decision.decisionReason),
    decisionReason: decision.decisionReason,
    ...(decision.behavior === "ask" && decision.suggestions?.length
      ? { suggestions: decision.suggestions }
      : {}),
    ...(details ? { details } : {}),
  });
  return decision.behavior;
}
