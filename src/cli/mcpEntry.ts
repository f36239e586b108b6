// `node src/cli/mcpEntry.ts [flags]` = `keel mcp [flags]` straight from the sources (Node 24 runs .ts),
// for tests and benchmarks that must not depend on a build in dist/.
import module from "node:module";

module.enableCompileCache?.();
const { main } = await import("./main.ts");
process.exitCode = await main(["mcp", ...process.argv.slice(2)]);
