// An MCP server that starts and never answers anything.
process.stdin.on("data", () => {});
setInterval(() => {}, 1_000);
