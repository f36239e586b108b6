// `keel mcp` over stdio: one session on stdin/stdout. Stdout carries only JSON-RPC (stray console
// output goes to stderr); a line that is not JSON, not JSON-RPC or over the size limit gets an error
// response, never an exit.
import { errorMessage } from "../tool/errors.ts";
import { createKeelMcpServer, type KeelMcpServerOptions } from "./server.ts";
import { LineStdioServerTransport } from "./stdioTransport.ts";

/** Keeps stdout for the protocol: anything logged with console.log/info/debug goes to stderr. */
export function redirectConsoleToStderr(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/** Serves until stdin closes (or `signal` fires); then running calls are aborted, so their processes die. */
export async function serveStdio(
  options: KeelMcpServerOptions,
  streams: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream; signal?: AbortSignal } = {},
): Promise<void> {
  const stdin = (streams.stdin ?? process.stdin) as NodeJS.ReadStream;
  const stdout = (streams.stdout ?? process.stdout) as NodeJS.WriteStream;
  const log = options.log ?? (() => {});
  const server = createKeelMcpServer({ ...options, roots: "atStart" });
  const transport = new LineStdioServerTransport(stdin, stdout, { log });
  const closed = new Promise<void>((resolve) => {
    const finish = () => resolve();
    stdin.once("end", finish);
    stdin.once("close", finish);
    // The client stopped reading (EPIPE): the session is over, as when stdin closes.
    let reported = false;
    stdout.on("error", (error) => {
      if (!reported) log(`stdout closed: ${errorMessage(error)}`);
      reported = true;
      finish();
    });
    server.onclose = finish;
    streams.signal?.addEventListener("abort", finish, { once: true });
  });
  await server.connect(transport);
  await closed;
  options.context.abortController.abort(new Error("The MCP client disconnected."));
  await server.close().catch(() => {});
}
