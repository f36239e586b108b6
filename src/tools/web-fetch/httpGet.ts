// One HTTP(S) GET with the guards WebFetch needs: a checked DNS lookup, a byte cap on the decoded
// body, decompression, and an abort signal that ends the socket. Redirects are the caller's job.
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import type { Readable } from "node:stream";
import { ToolError } from "../../tool/errors.ts";
import { guardedLookup } from "./guardedLookup.ts";

// node:http, node:https and node:zlib are required on first use: importing node:http as an ES module
// loads Node's bundled undici (~50 ms here) at every start of the CLI, most of which never fetch.
const requireBuiltin = createRequire(import.meta.url);
type Http = typeof import("node:http");
const zlib = () => requireBuiltin("node:zlib") as typeof import("node:zlib");

export interface HttpGetOptions {
  signal: AbortSignal;
  maxBytes: number;
  allowPrivate: boolean;
  headers?: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export class ResponseTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number, declared?: number) {
    super(
      declared === undefined
        ? `the response is larger than ${limit} bytes`
        : `the response declares ${declared} bytes, over the ${limit}-byte limit`,
    );
    this.name = "ResponseTooLargeError";
    this.limit = limit;
  }
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "identity")
    .trim()
    .toLowerCase();
  switch (encoding) {
    case "":
    case "identity":
      return response;
    case "gzip":
    case "x-gzip":
      return response.pipe(zlib().createGunzip());
    case "deflate":
      return response.pipe(zlib().createInflate());
    case "br":
      return response.pipe(zlib().createBrotliDecompress());
    case "zstd":
      return response.pipe(zlib().createZstdDecompress());
    default:
      throw new ToolError("unsupported_file", `The server sent an unknown content-encoding "${encoding}".`);
  }
}

/** HTTP statuses that send the client elsewhere (their bodies are not read). */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Reads the body up to maxBytes (decoded). Redirect bodies are skipped. */
function readBody(response: IncomingMessage, maxBytes: number, redirect: boolean): Promise<Buffer> {
  if (redirect) {
    response.resume();
    return Promise.resolve(Buffer.alloc(0));
  }
  const declared = Number(response.headers["content-length"]);
  const encoded = response.headers["content-encoding"] !== undefined;
  if (!encoded && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    return Promise.reject(new ResponseTooLargeError(maxBytes, declared));
  }
  return new Promise((resolve, reject) => {
    let stream: Readable;
    try {
      stream = decoded(response);
    } catch (error) {
      response.destroy();
      reject(error);
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    stream.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        response.destroy();
        stream.destroy();
        reject(new ResponseTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
    response.on("error", reject);
    response.on("close", () => {
      if (!response.complete) reject(new Error("the connection closed before the whole body arrived"));
    });
  });
}

export function httpGet(url: URL, options: HttpGetOptions): Promise<HttpResponse> {
  const request = (requireBuiltin(url.protocol === "https:" ? "node:https" : "node:http") as Http).request;
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(options.signal.reason);
      return;
    }
    const req = request(url, {
      method: "GET",
      headers: options.headers,
      lookup: guardedLookup(options.allowPrivate),
      // No pooled sockets: every connection goes through the checked lookup with this call's rules.
      agent: false,
      signal: options.signal,
    });
    req.on("error", reject);
    req.on("response", (response) => {
      const status = response.statusCode ?? 0;
      readBody(response, options.maxBytes, REDIRECT_STATUSES.has(status)).then(
        (body) =>
          resolve({ status, statusText: response.statusMessage ?? "", headers: response.headers, body }),
        reject,
      );
    });
    req.end();
  });
}
