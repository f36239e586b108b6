// `keel check <Name> [json|-]`: the permission decision for a call, explained, without running it.
import type { Command } from "commander";
import { decidePermission } from "../../permissions/engine.ts";
import { describeDecider } from "../../permissions/types.ts";
import { formatSchemaError, parseArguments } from "../../pipeline/input.ts";
import { findToolByName } from "../../tool/registry.ts";
import { CliError } from "../exitCodes.ts";
import { readJsonInput } from "../input.ts";
import { type CliSession, connectSessionMcp, openSession, type PolicyFlags } from "../session.ts";
import { withMcpOptions, withPolicyOptions } from "./policyOptions.ts";

export function register(program: Command): void {
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
    .action(async (name: string, inputArg: string | undefined, options: PolicyFlags & { json?: boolean }) => {
      const raw = readJsonInput(inputArg);
      const session = await connectSessionMcp(openSession(options), options);
      try {
        await explain(session, name, raw, options.json === true);
      } finally {
        session.close();
      }
    });
}

async function explain(session: CliSession, name: string, raw: unknown, json: boolean): Promise<void> {
  const tool = findToolByName(session.context.options.tools, name);
  if (!tool) {
    const names = session.context.options.tools.map((t) => t.name).join(", ") || "(none)";
    throw new CliError(
      `No tool named "${name}" (or it is hidden by a deny rule). Available tools: ${names}.`,
    );
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
  if (json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  process.stdout.write(
    `${report.behavior.toUpperCase()}: ${report.reason || "(no message)"}\ndecided by: ${report.decidedBy}\n`,
  );
  if ("suggestions" in report && report.suggestions) {
    for (const suggestion of report.suggestions)
      process.stdout.write(`suggested rule: ${suggestion.behavior} ${suggestion.rule}\n`);
  }
  if (details) process.stdout.write(`details: ${JSON.stringify(details, null, 2)}\n`);
}
