// `keel daemon status|stop`: the background decision servers that answer `keel hook` and `keel check`.
import type { Command } from "commander";
import { SERVER_SWITCH } from "../decisionServer/address.ts";

export function register(program: Command): void {
  const daemon = program
    .command("daemon")
    .description("The background decision servers that answer keel hook and keel check quickly: status, stop")
    .addHelpText(
      "after",
      [
        "",
        "The first `keel hook <agent>` or `keel check <Name> <json>` decides in its own process and starts a",
        "server in the background; later ones are answered by it in a few milliseconds instead of ~0.1 s.",
        "A server decides exactly as the command would (settings and trust are read afresh each time),",
        "serves one user, one Keel build and one environment, listens on a socket in a folder only you can",
        "enter ($XDG_RUNTIME_DIR/keel, else <tmp>/keel-<uid>), and exits after 10 idle minutes.",
        `Set ${SERVER_SWITCH}=off to decide in each process and start no server.`,
      ].join("\n"),
    );
  daemon
    .command("status")
    .description("List the running decision servers")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const { listServers } = await import("../decisionServer/control.ts");
      const servers = await listServers();
      if (options.json) return void process.stdout.write(`${JSON.stringify(servers, null, 2)}\n`);
      if (servers.length === 0) return void process.stdout.write("No decision server is running.\n");
      for (const server of servers)
        process.stdout.write(
          `pid ${server.pid}: ${server.requests} requests since ${server.startedAt}; ${server.socket}\n`,
        );
    });
  daemon
    .command("stop")
    .description("Stop every decision server of this user (the next call starts one again)")
    .action(async () => {
      const { stopServers } = await import("../decisionServer/control.ts");
      const stopped = await stopServers();
      process.stdout.write(
        stopped === 0 ? "No decision server was running.\n" : `Stopped ${stopped} decision server(s).\n`,
      );
    });
}
