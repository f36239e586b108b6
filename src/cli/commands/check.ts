// `keel check <Name> [json|-]`: the permission decision for a call, explained, without running it.
import type { Command } from "commander";
import { decidePermission } from "../../permissions/engine.ts";
import { findBlanketRule } from "../../permissions/matchers.ts";
import type { PermissionRule } from "../../permissions/types.ts";
import { describeDecider } from "../../permissions/types.ts";
import { formatSchemaError, parseArguments } from "../../pipeline/input.ts";
import { didYouMean } from "../../tool/didYouMean.ts";
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
    .option("--json", 'print {"behavior", "reason", "decidedBy"} as JSON')
    .addHelpText(
      "after",
      "\nExit codes: 0 allow, 1 ask, 2 usage error (bad JSON, unknown tool, bad flags), 3 deny.\n" +
        "With the input given as an argument, the decision server answers after the first call (see keel\n" +
        "daemon --help); the decision is the same either way.",
    )
    .action(async (name: string, inputArg: string | undefined, options: PolicyFlags & { json?: boolean }) => {
      const raw = await readJsonInput(inputArg);
      preferQuickStart();
      const session = await connectSessionMcp(await openSession(options, { forTool: name }), options);
      try {
        const behavior = await explain(session, name, raw, options.json === true);
        runtime.setExitCode(EXIT_FOR_DECISION[behavior]);
      } finally {
        session.close();
      }
    });
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

function printReport(
  report: Record<string, unknown> & { behavior: string; reason: string; decidedBy: string },
  json: boolean,
): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  process.stdout.write(
    `${report.behavior.toUpperCase()}: ${report.reason || "(no message)"}\ndecided by: ${report.decidedBy}\n`,
  );
}

async function explain(
  session: CliSession,
  name: string,
  raw: unknown,
  json: boolean,
): Promise<"allow" | "ask" | "deny"> {
  const { tool, hiddenBy } = lookUp(session, name);
  if (hiddenBy) {
    const decisionReason = { type: "rule" as const, rule: hiddenBy };
    const decidedBy = describeDecider(decisionReason);
    printReport(
      {
        behavior: "deny",
        reason: `${tool.name} is denied outright (and hidden from the model) by the ${decidedBy}`,
        decidedBy,
        decisionReason,
      },
      json,
    );
    return "deny";
  }
  const parsed = parseArguments(raw);
  if (!parsed.ok) throw new CliError(`${tool.name}: ${parsed.message}`);
  const checked = tool.inputSchema.safeParse(parsed.value);
  if (!checked.success) throw new CliError(formatSchemaError(tool.name, checked.error));
  const decision = await decidePermission(tool, checked.data, session.context);
  const details = tool.explainPermission
    ? await tool.explainPermission(checked.data, session.context)
    : undefined;
  const report = {
    behavior: decision.behavior,
    reason: decision.message ?? "",
    decidedBy: describeDecider(decision.decisionReason),
    decisionReason: decision.decisionReason,
    ...(decision.behavior === "ask" && decision.suggestions?.length
      ? { suggestions: decision.suggestions }
      : {}),
    ...(details ? { details } : {}),
  };
  printReport(report, json);
  if (json) return decision.behavior;
  if ("suggestions" in report && report.suggestions) {
    for (const suggestion of report.suggestions)
      process.stdout.write(`suggested rule: ${suggestion.behavior} ${suggestion.rule}\n`);
  }
  if (details) process.stdout.write(`details: ${JSON.stringify(details, null, 2)}\n`);
  return decision.behavior;
}
