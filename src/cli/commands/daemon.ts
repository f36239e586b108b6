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
        "A server decides exactly as the command would: each request brings its folder, environment and",
        "input as data, and settings and trust are read afresh each time. One server per user and Keel build",
        "(never per environment); it decides many requests at once, listens on a socket in a folder only you",
        "can enter (/run/user/<uid>/keel, else /tmp/keel-<uid>), logs what goes wrong beside the socket",
        "(shown by `keel daemon status` and `keel doctor`), and exits after 10 minutes without a decision.",
        "A stopped or stuck server costs a call at most about a second: it then decides in its own process.",
        `Set ${SERVER_SWITCH}=off to decide in each process and start no server.`,
      ].join("\n"),
    );
  daemon
    .command("status")
    .description("List the running decision servers")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const { listServers, recentLogLines } = await import("../decisionServer/control.ts");
      const servers = await listServers();
      if (options.json) return void process.stdout.write(`${JSON.stringify(servers, null, 2)}\n`);
      if (servers.length === 0) return void process.stdout.write("No decision server is running.\n");
      for (const server of servers) {
        process.stdout.write(
          `pid ${server.pid}: ${server.requests} decisions since ${server.startedAt}, ${server.running} running now\n` +
            `  build: ${server.build}\n  socket: ${server.socket}\n  log: ${server.log}\n`,
        );
        for (const line of recentLogLines(server.log, 5)) process.stdout.write(`    ${line}\n`);
      }
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
