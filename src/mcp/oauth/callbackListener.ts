// The loopback redirect listener of an OAuth login (RFC 8252): http://127.0.0.1:<port>/callback takes
// the authorization server's redirect once, checks `state`, and hands over the code. It listens only on
// 127.0.0.1 and only while a login waits; a wrong or missing state is refused, not accepted.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif"><h1>${title}</h1><p>${text}</p></body>`;

export interface CallbackListener {
  port: number;
  redirectUrl: string;
  /** Resolves with the code once the browser comes back; rejects on an OAuth error, abort or timeout. */
  code: Promise<string>;
  close(): void;
}

/** A free loopback port now (for the redirect URI of a new registration). */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function redirectUrlFor(port: number): string {
  return `http://127.0.0.1:${port}/callback`;
}

export async function listenForCallback(options: {
  port: number;
  state: string;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<CallbackListener> {
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  code.catch(() => {});
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    const params = url.searchParams;
    if (params.get("state") !== options.state) {
      res
        .writeHead(400, { "content-type": "text/html" })
        .end(
          PAGE(
            "Login refused",
            "The reply does not belong to this login (state mismatch). Start the login again.",
          ),
        );
      return;
    }
    const error = params.get("error");
    if (error) {
      const description = params.get("error_description");
      res
        .writeHead(400, { "content-type": "text/html" })
        .end(PAGE("Login failed", `The server said: ${error}.`));
      finish(
        new Error(`the authorization server refused: ${error}${description ? ` (${description})` : ""}`),
      );
      return;
    }
    const value = params.get("code");
    if (!value) {
      res
        .writeHead(400, { "content-type": "text/html" })
        .end(PAGE("Login failed", "The reply carries no code."));
      return;
    }
    res
      .writeHead(200, { "content-type": "text/html" })
      .end(PAGE("Keel is logged in", "You can close this tab."));
    finish(value);
  });
  const close = () => {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    server.close();
    server.closeAllConnections();
  };
  const finish = (result: string | Error) => {
    close();
    if (typeof result === "string") settle?.resolve(result);
    else settle?.reject(result);
  };
  const onAbort = () => finish(new Error("the login was cancelled"));
  const timer = setTimeout(
    () => finish(new Error(`no answer from the browser within ${Math.round(options.timeoutMs / 1000)} s`)),
    options.timeoutMs,
  );
  timer.unref();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      reject(
        error.code === "EADDRINUSE"
          ? new Error(
              `the login's callback port ${options.port} is in use; close what uses it, or run \`keel mcp logout\` and log in again`,
            )
          : error,
      );
    });
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return { port, redirectUrl: redirectUrlFor(port), code, close };
}
