// `keel mcp [serve]`: Keel's tools as an MCP server (stdio, or Streamable HTTP with --http).
// `keel mcp list`: the MCP servers Keel would use, their state and their tools.
// `keel mcp login|logout <server>`: OAuth for remote MCP servers that need it.
// The SDK and the server code load only when a subcommand runs, so other commands do not pay for them.
import type { Command } from "commander";
import { EXIT } from "../exitCodes.ts";
import type { CliRuntime } from "../main.ts";
import { collect } from "../session.ts";
import { type McpCommandOptions, type ServeFlags, serve } from "./mcpServe.ts";
import { withPolicyOptions } from "./policyOptions.ts";

export { type McpCommandOptions, selectTools } from "./mcpServe.ts";

const SERVE_HELP = `
Limits (the same on stdio and HTTP):
  One incoming message (a stdio line, an HTTP body) may be at most 4 MiB. A larger one is refused with a
  JSON-RPC error (HTTP status 413) and the session goes on. Error messages quote at most 1 KB of input.

HTTP sessions:
  Every request needs "Authorization: Bearer <token>" (printed at start, or --token / KEEL_MCP_TOKEN).
  --no-auth drops the token for tools that cannot send headers; it is accepted only on a loopback
  address and prints a warning: any program on this machine can then run the tools.
  A session ends on DELETE, or after --session-timeout without requests (default 30m); at most
  --max-sessions live at once (default 1000), past that initialize gets HTTP 503.
`;

const OAUTH_HELP = `
OAuth (remote servers that need a login):
  keel mcp login <server> runs the MCP authorization flow: protected-resource and authorization-server
  discovery, dynamic client registration (or the "oauth": {"clientId"} of the server's config), PKCE,
  and a redirect to a listener on 127.0.0.1. The tokens are kept in ~/.keel/mcp-oauth.json (mode 0600)
  and refreshed when they expire; keel mcp logout <server> forgets them.
`;

const MCP_HELP = `
keel mcp (the same as keel mcp serve) serves over stdio; --http [host:]port serves Streamable HTTP.
Its flags, message limits, --no-auth and HTTP sessions: keel mcp serve --help.
${OAUTH_HELP}`;

export function register(program: Command, runtime?: CliRuntime, options: McpCommandOptions = {}): void {
  const mcp = program
    .command("mcp")
    .description(
      "MCP both ways: serve Keel's tools to MCP clients (default), list the MCP servers Keel uses, log in to them",
    )
    .addHelpText("after", MCP_HELP);
  withPolicyOptions(
    mcp
      .command("serve", { isDefault: true })
      .description(
        "Serve Keel's tools over MCP, every call through the governed pipeline (stdio by default)",
      ),
  )
    .option(
      "--http <[host:]port>",
      "serve Streamable HTTP at http://host:port/mcp instead (host default 127.0.0.1)",
    )
    .option(
      "--token <token>",
      "bearer token HTTP clients must send (default: KEEL_MCP_TOKEN, else generated and printed)",
    )
    .option(
      "--no-auth",
      "HTTP without a token (loopback addresses only; for test tools that cannot send headers)",
    )
    .option(
      "--session-timeout <duration>",
      "end an HTTP session after this long without requests (default 30m)",
    )
    .option("--max-sessions <n>", "live HTTP sessions at most (default 1000)")
    .option("--tools <names>", "serve only these tools (comma-separated, repeatable)", collect)
    .option("--exclude-tools <names>", "do not serve these tools (comma-separated, repeatable)", collect)
    .addHelpText("after", SERVE_HELP)
    .action((flags: ServeFlags) => serve(flags, options));
  withPolicyOptions(
    mcp.command("list").description("Connect to the configured MCP servers and show their state and tools"),
  )
    .option(
      "--mcp-config <file>",
      'MCP servers from this file or JSON ({"mcpServers": {...}}; repeatable)',
      collect,
    )
    .option("--strict-mcp-config", "use only the servers from --mcp-config")
    .option("--json", "print JSON")
    .action(async (flags) => {
      const failed = await (await import("./mcpList.ts")).list(flags);
      if (failed) runtime?.setExitCode(EXIT.toolError);
    });
  for (const [name, description] of [
    [
      "login",
      "Log in to a remote MCP server that needs OAuth (opens a browser; tokens kept in ~/.keel, 0600)",
    ],
    ["logout", "Forget the OAuth tokens of a remote MCP server"],
  ] as const) {
    const command = withPolicyOptions(mcp.command(`${name} <server>`).description(description))
      .option("--mcp-config <file>", "MCP servers from this file or JSON (repeatable)", collect)
      .option("--strict-mcp-config", "use only the servers from --mcp-config");
    if (name === "login")
      command
        .option("--no-browser", "only print the URL to open, do not start a browser")
        .addHelpText("after", OAUTH_HELP);
    command.action(async (server: string, flags) => (await import("./mcpLogin.ts"))[name](server, flags));
  }
}
