// `keel tool <Name> [json|-]`: one call through the whole pipeline, printing what the model would see.

import { readdirSync } from "node:fs";
import type { Command } from "commander";
import { type ResultEvent, runToolUse } from "../../pipeline/runToolUse.ts";
import { randomUUID } from "../../tool/lazyCrypto.ts";
import type { ToolResultContent } from "../../tool/messages.ts";
import { onStopSignal, type StopSignal } from "../../tool/stopSignals.ts";
import { CliError, EXIT } from "../exitCodes.ts";
import { JSONL_EXAMPLE, readJsonInput } from "../input.ts";
import type { CliRuntime } from "../main.ts";
import { preferQuickStart } from "../quickStart.ts";
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

/** Whether the session saved any output (a large result, a Bash output file) that its end removes. */
function savedResultsIn(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/** Why a call stopped early: what the model would read, and the person sees on stderr. */
function stoppedError(signal: StopSignal): Error {
  return new Error(signal === "SIGINT" ? "Interrupted (Ctrl-C)" : `Stopped by ${signal}`);
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
        .argument("[name]", "tool name (see `keel tools`); none with --jsonl")
        .argument("[input]", "JSON input, or - to read it from stdin"),
    ),
  )
    .option("--json", 'print {"is_error", "content", "decision"} as JSON')
    .option(
      "--jsonl",
      "several calls in one session: one JSON call per stdin line, one JSON result per stdout line (so Edit can follow Read)",
    )
    .option("--verbose", "print progress and hook messages on stderr")
    .addHelpText(
      "after",
      "\nExit codes: 0 done, 1 the tool returned an error, 2 usage error, 3 refused or needs an approval nobody can give;\n" +
        "130 / 143 / 129 stopped by SIGINT (Ctrl-C) / SIGTERM / SIGHUP (the call's processes, hooks included, end with it).\n" +
        "With --jsonl: the code of the first call that failed (0 when none did).\n" +
        "Read, Grep, Glob and LS with their input as an argument and no terminal to ask on are run by the\n" +
        "decision server after the first call (see keel daemon --help).\n\n" +
        "Example (Edit needs the file read in the same session):\n" +
        `  printf '%s\\n' '${JSONL_EXAMPLE}' \\\n` +
        `    '{"name": "Edit", "input": {"file_path": "/abs/path", "old_string": "a", "new_string": "b"}}' | keel tool --jsonl --allow Edit`,
    )
    .action(
      async (
        name: string | undefined,
        inputArg: string | undefined,
        options: PolicyFlags & { json?: boolean; jsonl?: boolean; verbose?: boolean },
      ) => {
        if (options.jsonl) {
          if (name !== undefined)
            throw new CliError("--jsonl reads the calls from stdin; do not also name a tool.");
          await offerTrust(options);
          const session = await connectSessionMcp(await openSession(options), options);
          const unwatch = onStopSignal((signal) => {
            session.context.abortController.abort(stoppedError(signal));
            // No more calls: the lines still coming are not read.
            process.stdin.destroy();
          });
          try {
            const { runJsonLines } = await import("./toolLines.ts");
            runtime.setExitCode(
              await runJsonLines(session, {
                input: process.stdin,
                output: process.stdout,
                errors: process.stderr,
                exitCodeFor,
              }),
            );
          } finally {
            unwatch();
            session.close();
          }
          return;
        }
        if (name === undefined)
          throw new CliError(
            "Name a tool (`keel tools` lists them), or pass --jsonl to read calls from stdin.",
          );
        const input = await readJsonInput(inputArg, runtime.io);
        preferQuickStart();
        await offerTrust(options);
        const session = await connectSessionMcp(
          await openSession(options, { terminalPrompter: true, forTool: name }),
          options,
        );
        const unwatch = onStopSignal((signal) => session.context.abortController.abort(stoppedError(signal)));
        let result: ResultEvent | undefined;
        let saved = false;
        try {
          for await (const event of runToolUse(
            { type: "tool_use", id: `cli_${randomUUID()}`, name, input },
            session.context,
            session.services,
          )) {
            if (event.type === "result") result = event;
            else if (options.verbose)
              runtime.io.err(
                `[progress] ${typeof event.data === "string" ? event.data : JSON.stringify(event.data)}\n`,
              );
          }
          saved = savedResultsIn(session.context.options.toolResultsDir);
        } finally {
          unwatch();
          session.close();
        }
        if (!result) throw new Error("the pipeline ended without a result");
        for (const message of result.userMessages) runtime.io.err(`keel: ${message}\n`);
        if (saved)
          runtime.io.err(
            "keel: the output saved for this call is removed when keel exits (each `keel tool` call is a session of its " +
              "own). To read it, run the call and the Read in one session with `keel tool --jsonl`.\n",
          );
        if (result.errorCode === "not_read" || result.errorCode === "changed_since_read")
          runtime.io.err(
            "keel: each `keel tool` call is a session of its own, so no earlier Read counts here. Run the Read and " +
              "the change in one session with `keel tool --jsonl` (see keel tool --help).\n",
          );
        if (options.json) {
          const decision = result.decision
            ? {
                behavior: result.decision.behavior,
                decidedBy: result.decision.decidedBy,
                reason: result.decision.reason,
              }
            : null;
          runtime.io.out(
            `${JSON.stringify({ is_error: result.isError, content: result.block.content, decision }, null, 2)}\n`,
          );
        } else {
          const text = contentAsText(result.block.content);
          (result.isError ? runtime.io.err : runtime.io.out)(text.endsWith("\n") ? text : `${text}\n`);
          for (const extra of result.additionalContext) runtime.io.out(`${extra}\n`);
        }
        runtime.setExitCode(exitCodeFor(result));
      },
    );
}
