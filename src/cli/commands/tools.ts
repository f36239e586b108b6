// `keel tools`: what each tool is, its flags and its input schema.
import type { Command } from "commander";
import { toolInputJSONSchema } from "../../tool/schema.ts";
import { safeFlag, type Tool } from "../../tool/Tool.ts";
import { collect, openSession, type PolicyFlags } from "../session.ts";

export function describeTool(tool: Tool) {
  const probe = {};
  return {
    name: tool.name,
    aliases: tool.aliases ?? [],
    readOnly: safeFlag(() => tool.isReadOnly(probe), false),
    concurrencySafe: safeFlag(() => tool.isConcurrencySafe(probe), false),
    destructive: safeFlag(() => tool.isDestructive(probe), false),
    deferred: tool.shouldDefer === true && tool.alwaysLoad !== true,
    inputSchema: toolInputJSONSchema(tool),
  };
}

export function register(program: Command): void {
  program
    .command("tools")
    .description("List the tools: flags (read-only, concurrency-safe, destructive) and input schemas")
    .option("--json", "print JSON instead of a table")
    .option("--cwd <dir>", "project directory whose settings apply (default: current directory)")
    .option("--deny <rule>", "deny rule (a blanket deny hides the tool)", collect)
    .action(async (options: PolicyFlags & { json?: boolean }) => {
      const { tools } = await openSession(options);
      const described = tools.map(describeTool);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(described, null, 2)}\n`);
        return;
      }
      if (described.length === 0) {
        process.stdout.write("No tools are available.\n");
        return;
      }
      const width = Math.max(...described.map((t) => t.name.length));
      process.stdout.write(`${"TOOL".padEnd(width)}  READ-ONLY  PARALLEL  DESTRUCTIVE  PARAMETERS\n`);
      for (const tool of described) {
        const params = Object.keys(
          (tool.inputSchema.properties as Record<string, unknown> | undefined) ?? {},
        ).join(", ");
        const yes = (flag: boolean, pad: number) => (flag ? "yes" : "no").padEnd(pad);
        process.stdout.write(
          `${tool.name.padEnd(width)}  ${yes(tool.readOnly, 9)}  ${yes(tool.concurrencySafe, 8)}  ${yes(tool.destructive, 11)}  ${params}\n`,
        );
      }
      process.stdout.write(
        "\nFlags shown for an empty input; some tools decide per call (Bash is read-only only for read-only commands).\n",
      );
    });
}
