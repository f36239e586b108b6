// A real HTTP server on 127.0.0.1 for the WebFetch tests and benchmark: routes by path, counts hits.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

export interface TestServer {
  server: Server;
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startTestServer(routes: Record<string, Route>): Promise<TestServer> {
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route) route(request, response);
    else response.writeHead(404, { "content-type": "text/plain" }).end("no such page");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
