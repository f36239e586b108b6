// An MCP server that answers every line with garbage: text, broken JSON, JSON that is not JSON-RPC.
process.stdin.on("data", () => {
  process.stdout.write('Welcome to the server!\n{"jsonrpc": "2.0", "id": \n');
  process.stdout.write(`${JSON.stringify({ hello: "world" })}\n\u0000\u0001binary\n`);
});
setInterval(() => {}, 1_000);
