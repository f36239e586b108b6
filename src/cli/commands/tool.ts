// `keel tool <Name> [json|-]`: one call through the whole pipeline, printing what the model would see.
import { randomUUID } from "node:crypto";
import type { Command } from "commander";
import { type ResultEvent, runToolUse } from "../../pipeline/runToolUse.ts";
import type { ToolResultContent } from "../../tool/messages.ts";
import { EXIT } from "../exitCodes.ts";
import { readJsonInput } from "../input.ts";
import type { CliRuntime } from "../main.ts";
import { connectSessionMcp, offerTrust, openSession, type PolicyFlags } from "../session.ts";
import { withMcpOptions, withPolicyOptions } from "./policyOptions.ts";

export function contentAsText(content: ToolResultContent): string {
  if (typeof content === "string") return content;
  return content
    .map((block) =>
      block.type === "text"
        ? block.text
        : `[image: ${block.source.media_type}, ${Math.round((block.source.data.length * 3) / 4)} bytes]`,
    )
    .join("\n");
}

export function exitCodeFor(result: ResultEvent): number {
  if (!result.isError) return EXIT.ok;
  if (result.errorCode === "permission_denied" || result.errorCode === "hook_blocked") return EXIT.refused;
  if (
    result.errorCode === "unknown_tool" ||
    result.errorCode === "invalid_json" ||
    result.errorCode === "invalid_input"
  )
    return EXIT.usage;
  return EXIT.toolError;
}

export function register(program: Command, runtime: CliRuntime): void {
  withMcpOptions(
    withPolicyOptions(
      program
        .command("tool")
        .description("Run one tool call through the governed pipeline and print the model-facing result")
        .argument("<name>", "tool name (see `keel tools`)")
        .argument("[input]", "JSON input, or - to read it from stdin"),
    ),
  )
    .option("--json", 'print {"is_error", "content", "decision"} as JSON')
    .option("--verbose", "print progress and hook messages on stderr")
    .addHelpText(
      "after",
      "\nExit codes: 0 done, 1 the tool returned an error, 2 usage error, 3 refused or needs an approval nobody can give.",
    )
    .action(
      async (
        name: string,
        inputArg: string | undefined,
        options: PolicyFlags & { json?: boolean; verbose?: boolean },
      ) => {
        const input = readJsonInput(inputArg);
        await offerTrust(options);
        const session = await connectSessionMcp(openSession(options, { terminalPrompter: true }), options);
        const onSignal = () => session.context.abortController.abort(new Error("Interrupted (Ctrl-C)"));
        process.once("SIGINT", onSignal);
        let result: ResultEvent | undefined;
        try {
          for await (const event of runToolUse(
            { type: "tool_use", id: `cli_${randomUUID()}`, name, input },
            session.context,
            session.services,
          )) {
            if (event.type === "result") result = event;
            else if (options.verbose)
              process.stderr.write(
                `[progress] ${typeof event.data === "string" ? event.data : JSON.stringify(event.data)}\n`,
              );
          }
        } finally {
          process.off("SIGINT", onSignal);
          session.close();
        }
        if (!result) throw new Error("the pipeline ended without a result");
        for (const message of result.userMessages) process.stderr.write(`keel: ${message}\n`);
        if (options.json) {
          const decision = result.decision
            ? {
                behavior: result.decision.behavior,
                decidedBy: result.decision.decidedBy,
                reason: result.decision.reason,
              }
            : null;
          process.stdout.write(
            `${JSON.stringify({ is_error: result.isError, content: result.block.content, decision }, null, 2)}\n`,
          );
        } else {
          const text = contentAsText(result.block.content);
          (result.isError ? process.stderr : process.stdout).write(text.endsWith("\n") ? text : `${text}\n`);
          for (const extra of result.additionalContext) process.stdout.write(`${extra}\n`);
        }
        runtime.setExitCode(exitCodeFor(result));
      },
    );
}
