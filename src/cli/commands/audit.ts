// `keel audit`: the audit log of tool calls, for one session or all, as lines for people or JSON.
import type { Command } from "commander";
import { auditDir } from "../../audit/jsonlSink.ts";
import { formatAuditRecord, readAuditRecords } from "../../audit/readAudit.ts";
import { CliError } from "../exitCodes.ts";

interface AuditFlags {
  session?: string;
  json?: boolean;
  date?: string;
  tool?: string;
  limit?: string;
  summary?: boolean;
}

export function register(program: Command): void {
  program
    .command("audit")
    .description("Show the audit log: every tool call, its decision and who made it (~/.keel/audit)")
    .option("--session <id>", "only this session")
    .option("--date <YYYY-MM-DD>", "only this day (UTC)")
    .option("--tool <name>", "only calls of this tool")
    .option("--limit <n>", "only the last n calls")
    .option("--json", "print JSON lines (one record per line)")
    .option(
      "--summary",
      "per agent and tool: calls allowed, denied and left to a person (keel hook: prompts saved)",
    )
    .action(async (options: AuditFlags) => {
      if (options.date && !/^\d{4}-\d{2}-\d{2}$/.test(options.date))
        throw new CliError(`--date takes YYYY-MM-DD, not "${options.date}"`);
      const limit = options.limit === undefined ? undefined : Number(options.limit);
      if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0))
        throw new CliError(`--limit takes a whole number, not "${options.limit}"`);
      const dir = auditDir();
      const result = readAuditRecords({
        dir,
        ...(options.session ? { sessionId: options.session } : {}),
        ...(options.date ? { date: options.date } : {}),
        ...(options.tool ? { tool: options.tool } : {}),
        ...(limit === undefined ? {} : { limit }),
      });
      if (options.summary) {
        const { formatAuditSummary, summarizeAudit } = await import("../../audit/summary.ts");
        const rows = summarizeAudit(result.records);
        process.stdout.write(options.json ? `${JSON.stringify(rows, null, 2)}\n` : formatAuditSummary(rows));
      } else if (options.json) {
        for (const record of result.records) process.stdout.write(`${JSON.stringify(record)}\n`);
      } else if (result.records.length === 0) {
        process.stdout.write(
          `No audit records${options.session ? ` for session ${options.session}` : ""} in ${dir}.\n`,
        );
      } else {
        for (const record of result.records) process.stdout.write(`${formatAuditRecord(record)}\n`);
      }
      if (result.skippedLines > 0)
        process.stderr.write(
          `keel: ${result.skippedLines} unreadable line(s) in the audit log were skipped\n`,
        );
    });
}
