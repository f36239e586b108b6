// Preloaded into the conformance suite (node --import): its test servers call listen(0) without a host,
// which binds every interface, and read server.address().port on the next line. Here such a listen binds
// 127.0.0.1 only, still synchronously: through a TCP handle bound beforehand (listen(host) would look the
// host up first, leaving address() null on that line). The suite's URLs say "localhost", which reaches
// 127.0.0.1. A listen that names a host, a path or a handle is left as it is.
import { Server } from "node:net";

interface TcpHandle {
  bind(address: string, port: number): number;
}
interface TcpWrap {
  TCP: new (type: number) => TcpHandle;
  constants: { SERVER: number };
}

const { TCP, constants } = (process as unknown as { binding(name: "tcp_wrap"): TcpWrap }).binding("tcp_wrap");
const listen = Server.prototype.listen as (this: Server, ...args: unknown[]) => Server;

/** The port of a listen call that names no host, path or handle; undefined for any other call. */
function portWithoutHost(args: unknown[]): number | undefined {
  const [first, second] = args;
  if (first === undefined || typeof first === "function") return 0;
  if (typeof first === "number" && typeof second !== "string") return first;
  if (typeof first === "string" && /^\d+$/.test(first) && typeof second !== "string") return Number(first);
  if (typeof first !== "object" || first === null) return undefined;
  const options = first as Record<string, unknown>;
  if (["host", "path", "fd", "handle", "_handle"].some((key) => key in options)) return undefined;
  return Number(options.port ?? 0);
}

Server.prototype.listen = function listenOnLoopback(this: Server, ...args: unknown[]) {
  const port = portWithoutHost(args);
  if (port === undefined) return listen.apply(this, args);
  const handle = new TCP(constants.SERVER);
  const error = handle.bind("127.0.0.1", port);
  if (error !== 0) throw new Error(`conformance: cannot listen on 127.0.0.1:${port} (libuv error ${error})`);
  const callback = args.find((arg) => typeof arg === "function");
  return listen.call(this, handle, ...(callback ? [callback] : []));
} as Server["listen"];
