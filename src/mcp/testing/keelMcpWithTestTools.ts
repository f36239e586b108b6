// `keel mcp` exactly as the CLI runs it, with the test tools served beside the built-ins.
// Usage: node src/mcp/testing/keelMcpWithTestTools.ts [keel mcp flags]
import { Command, CommanderError } from "commander";
import { register } from "../../cli/commands/mcp.ts";
import { exitAfterStop, installStopSignals, stoppedBy } from "../../tool/stopSignals.ts";
import type { Tool } from "../../tool/Tool.ts";
import { ReadTool } from "../../tools/read/ReadTool.ts";
import { testTools } from "./testTools.ts";

// Signals end it as they end `keel` (cli/main.ts): the sessions stop, then the process exits 143/130/129.
installStopSignals();
const program = new Command("keel").exitOverride();
// Read as well, for tests of a real built-in tool (a built-in of the same name wins in the pool).
register(program, undefined, { extraTools: [...testTools(), ReadTool as unknown as Tool] });
try {
  await program.parseAsync(["mcp", ...process.argv.slice(2)], { from: "user" });
} catch (error) {
  if (!(error instanceof CommanderError)) process.stderr.write(`keel: ${(error as Error).message}\n`);
  process.exitCode = 2;
}
const signal = stoppedBy();
if (signal) await exitAfterStop(signal);
