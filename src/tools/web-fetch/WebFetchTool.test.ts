import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pipelineResult, resultSummary } from "../../pipeline/testing/tools.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import type { Tool } from "../../tool/Tool.ts";
import { toolError } from "../shared/testSession.ts";
import { invokeTool } from "../tasks-shared/testing.ts";
import { startTestServer, type TestServer } from "./testServer.ts";
import { createWebFetchTool, type WebFetchInput, type WebFetchOutput } from "./WebFetchTool.ts";

const HTML = `<!doctype html><html><head><title>Keel docs</title><style>body{color:red}</style>
<script>alert("x")</script></head><body><h1>Getting started</h1><p>Install with <code>npm i keel</code> and
read <a href="/guide">the guide</a>.</p><ul><li>fast</li><li>safe</li></ul></body></html>`;

let server: TestServer;
let tool: Tool<WebFetchInput, WebFetchOutput>;

beforeAll(async () => {
  server = await startTestServer({
    "/page": (_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(HTML),
    "/gzip": (_req, res) =>
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" }).end(gzipSync(HTML)),
    "/text": (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("plain words"),
    "/png": (_req, res) =>
      res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([137, 80, 78, 71, 0, 0])),
    "/missing": (_req, res) => res.writeHead(404, { "content-type": "text/plain" }).end("gone"),
    "/r1": (_req, res) => res.writeHead(301, { location: "/r2" }).end(),
    "/r2": (_req, res) => res.writeHead(302, { location: `${server.origin}/r3` }).end(),
    "/r3": (_req, res) => res.writeHead(307, { location: "page" }).end(),
    "/loop": (req, res) => {
      const n = Number(new URL(req.url ?? "/", "http://x").searchParams.get("n") ?? 0);
      res.writeHead(302, { location: `/loop?n=${n + 1}` }).end();
    },
    "/cross": (_req, res) => res.writeHead(302, { location: `http://localhost:${server.port}/page` }).end(),
    "/big-declared": (_req, res) => {
      const size = 11 * 1024 * 1024;
      res.writeHead(200, { "content-type": "text/html", "content-length": String(size) });
      res.end(Buffer.alloc(size, "a"));
    },
    "/big-chunked": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      const chunk = Buffer.alloc(1024 * 1024, "b");
      let sent = 0;
      const push = () => {
        while (sent < 11 && res.write(chunk)) sent++;
        if (sent >= 11) res.end();
        else
          res.once("drain", () => {
            sent++;
            push();
          });
      };
      push();
      res.on("error", () => {});
    },
    "/slow": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<p>first bytes, then nothing");
    },
    "/long": (_req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<body>${Array.from({ length: 30_000 }, (_, i) => `<p>Line ${i} of a long page.</p>`).join("")}</body>`,
        ),
    "/counted": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<p>counted page</p>"),
  });
  tool = createWebFetchTool({ timeoutMs: 20_000 });
});
afterAll(async () => {
  await server.close();
});

function sessionContext(allow: string[] = ["WebFetch(domain:127.0.0.1)"]): ToolUseContext {
  return createToolUseContext({ tools: [tool], allow, isNonInteractiveSession: true });
}

const fetchUrl = (path: string, context = sessionContext(), prompt = "What is this?") =>
  invokeTool(tool, { url: `${server.origin}${path}`, prompt }, context);

async function throughPipeline(url: string, context: ToolUseContext) {
  return resultSummary(
    await pipelineResult(
      { type: "tool_use", id: "toolu_1", name: "WebFetch", input: { url, prompt: "read it" } },
      context,
    ),
  );
}

describe("WebFetch against servers on 127.0.0.1", () => {
  it("is read-only, concurrency-safe, open-world and cancellable", () => {
    const input = { url: "https://example.com", prompt: "x" };
    expect([tool.isReadOnly(input), tool.isConcurrencySafe(input), tool.isDestructive(input)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(tool.isOpenWorld?.(input)).toBe(true);
    expect(tool.interruptBehavior()).toBe("cancel");
  });

  it("converts an HTML page to Markdown, dropping scripts and styles", async () => {
    const { data, text } = await fetchUrl("/page");
    expect(data.kind).toBe("page");
    expect(text).toContain("# Getting started");
    expect(text).toContain("[the guide](/guide)");
    expect(text).toContain("-   fast");
    expect(text).toContain("Title: Keel docs");
    expect(text).not.toContain("alert(");
    expect(text).not.toContain("color:red");
    expect(text).toContain("Use it to answer: What is this?");
  });

  it("decompresses gzip bodies, keeps plain text, refuses binary and reports HTTP errors", async () => {
    expect((await fetchUrl("/gzip")).text).toContain("# Getting started");
    expect((await fetchUrl("/text")).text).toContain("plain words");
    expect((await toolError(fetchUrl("/png"))).code).toBe("unsupported_file");
    const missing = await toolError(fetchUrl("/missing"));
    expect(missing.code).toBe("http_error");
    expect(missing.message).toContain("404");
  });

  it("follows a same-host redirect chain to the page", async () => {
    const { data } = await fetchUrl("/r1");
    expect(data.kind === "page" && data.finalUrl).toBe(`${server.origin}/page`);
    expect(server.hits.get("/r3")).toBeGreaterThan(0);
  });

  it("stops after 10 redirects", async () => {
    const error = await toolError(fetchUrl("/loop"));
    expect(error.code).toBe("fetch_failed");
    expect(error.message).toContain("more than 10 times");
  });

  it("reports a redirect to another host (127.0.0.1 -> localhost) instead of following it", async () => {
    const before = server.hits.get("/page") ?? 0;
    const { data, text } = await fetchUrl("/cross");
    expect(data.kind).toBe("redirect");
    expect(text).toContain("REDIRECT DETECTED");
    expect(text).toContain(`Redirect URL: http://localhost:${server.port}/page`);
    expect(server.hits.get("/page") ?? 0).toBe(before);
  });

  it("refuses an 11 MB body, declared or streamed, with a clear error", async () => {
    for (const path of ["/big-declared", "/big-chunked"]) {
      const error = await toolError(fetchUrl(path));
      expect(error.code).toBe("too_large");
      expect(error.message).toContain("10485760-byte limit");
    }
  });

  it("gives up on a slow server after the timeout", async () => {
    const quick = createWebFetchTool({ timeoutMs: 300 });
    const error = await toolError(
      invokeTool(quick, { url: `${server.origin}/slow`, prompt: "x" }, sessionContext()),
    );
    expect(error.code).toBe("timeout");
    expect(error.message).toContain("after 0.3 s");
  });

  it("cuts a long page to the result budget and says so", async () => {
    const { data, text } = await fetchUrl("/long");
    expect(data.kind === "page" && data.truncated).toBe(true);
    expect(data.kind === "page" && data.result.length).toBe(45_000);
    expect(text).toContain("Line 0 of a long page.");
    expect(text).not.toContain("Line 29999");
    expect(text).toContain("only its beginning was converted");
  });

  it("serves a second fetch of the same URL from the cache", async () => {
    const first = await fetchUrl("/counted");
    const second = await fetchUrl("/counted");
    expect(first.data.kind === "page" && first.data.cached).toBe(false);
    expect(second.data.kind === "page" && second.data.cached).toBe(true);
    expect(second.text).toContain("from cache");
    expect(server.hits.get("/counted")).toBe(1);
  });

  it("does not serve a page fetched under a private-address rule to a session without that rule", async () => {
    await fetchUrl("/counted");
    const hits = server.hits.get("/counted") ?? 0;
    const error = await toolError(fetchUrl("/counted", sessionContext(["WebFetch"])));
    expect(error.code).toBe("private_address");
    expect(server.hits.get("/counted")).toBe(hits);
  });

  it("hands the page and the prompt to a configured summarizer", async () => {
    const context = sessionContext();
    const seen: string[] = [];
    context.options = {
      ...context.options,
      ...{
        webFetchSummarizer: async (markdown: string, prompt: string) => {
          seen.push(prompt, markdown);
          return "It is the Keel docs.";
        },
      },
    };
    const { data, text } = await fetchUrl("/page", context, "Name the product");
    expect(data.kind === "page" && data.summarized).toBe(true);
    expect(text).toContain("It is the Keel docs.");
    expect(text).not.toContain("# Getting started");
    expect(seen[0]).toBe("Name the product");
    expect(seen[1]).toContain("# Getting started");
  });
});

describe("WebFetch and private addresses", () => {
  it("refuses 127.0.0.1 without a rule, through the pipeline, before anything is sent", async () => {
    const before = server.hits.get("/text") ?? 0;
    const result = await throughPipeline(`${server.origin}/text`, sessionContext([]));
    expect(result.isError).toBe(true);
    expect(result.code).toBe("permission_denied");
    expect(result.text).toContain("WebFetch(domain:127.0.0.1)");
    expect(server.hits.get("/text") ?? 0).toBe(before);
  });

  it("a blanket WebFetch allow rule does not open private addresses", async () => {
    const result = await throughPipeline(`${server.origin}/text`, sessionContext(["WebFetch"]));
    expect(result.code).toBe("permission_denied");
  });

  it("with the rule, the pipeline allows and fetches", async () => {
    const result = await throughPipeline(`${server.origin}/text`, sessionContext());
    expect(result.isError).toBe(false);
    expect(result.text).toContain("plain words");
  });

  it("checks the resolved addresses of a name at connect time (localhost -> 127.0.0.1 / ::1)", async () => {
    const context = sessionContext();
    const error = await toolError(
      invokeTool(tool, { url: `http://localhost:${server.port}/text`, prompt: "x" }, context),
    );
    expect(error.code).toBe("private_address");
  });

  it.each([
    "http://[::1]:9/",
    "http://0.0.0.0:9/",
    "http://169.254.169.254/latest/meta-data",
    "http://[::ffff:127.0.0.1]:9/",
  ])("refuses %s in the tool's own check", async (url) => {
    const decision = await tool.checkPermissions({ url, prompt: "x" }, sessionContext([]));
    expect(decision.behavior).toBe("deny");
  });

  it("asks for public hosts and suggests a domain rule", async () => {
    const decision = await tool.checkPermissions(
      { url: "https://example.com/a", prompt: "x" },
      sessionContext([]),
    );
    expect(decision.behavior).toBe("passthrough");
    expect(decision.behavior === "passthrough" && decision.suggestions?.[0]?.rule).toBe(
      "WebFetch(domain:example.com)",
    );
  });

  it("refuses non-http URLs and URLs with credentials", async () => {
    for (const url of [
      "ftp://example.com/x",
      "file:///etc/passwd",
      "https://user:pw@example.com/",
      "not a url",
    ]) {
      const result = await tool.validateInput!({ url, prompt: "x" }, sessionContext());
      expect(result.result).toBe(false);
    }
  });
});
