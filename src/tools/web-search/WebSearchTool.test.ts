import type { IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { toolError } from "../shared/testSession.ts";
import { invokeTool } from "../tasks-shared/testing.ts";
import { startTestServer, type TestServer } from "../web-fetch/testServer.ts";
import { createWebSearchTool } from "./WebSearchTool.ts";

interface Seen {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: unknown;
}

const HITS = [
  { title: "Node docs", url: "https://nodejs.org/api/fs.html", text: "The fs module" },
  { title: "Node blog", url: "https://blog.nodejs.org/post", text: "A post" },
  { title: "Mirror", url: "https://nodejs.org.evil.io/api", text: "Not node" },
  { title: "MDN", url: "https://developer.mozilla.org/x", text: "Web docs" },
  { title: "Bad scheme", url: "javascript:alert(1)", text: "dropped" },
];

let server: TestServer;
const seen: Seen[] = [];

async function record(req: IncomingMessage): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  const url = new URL(req.url ?? "/", "http://x");
  seen.push({
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    body: raw ? JSON.parse(raw) : undefined,
  });
}

beforeAll(async () => {
  const json = (value: unknown) => JSON.stringify(value);
  server = await startTestServer({
    "/res/v1/web/search": (req, res) => {
      void record(req).then(() => {
        if (req.headers["x-subscription-token"] !== "brave-key") return res.writeHead(401).end("bad key");
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          json({
            web: {
              results: HITS.map((h) => ({
                title: h.title,
                url: h.url,
                description: `<strong>${h.text}</strong>`,
              })),
            },
          }),
        );
      });
    },
    "/search": (req, res) => {
      void record(req).then(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(json({ results: HITS.map((h) => ({ title: h.title, url: h.url, content: h.text })) }));
      });
    },
    "/searx/search": (req, res) => {
      void record(req).then(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          json({ results: HITS.map((h) => ({ title: h.title, url: h.url, content: h.text, engine: "x" })) }),
        );
      });
    },
    "/forbidden/search": (req, res) => void record(req).then(() => res.writeHead(403).end("Forbidden")),
  });
});
afterAll(async () => {
  await server.close();
});

const context = (): ToolUseContext => createToolUseContext({ tools: [] });
const search = (env: NodeJS.ProcessEnv, input: Record<string, unknown>, ctx = context()) =>
  invokeTool(createWebSearchTool({ env }), input, ctx);
const lastSeen = () => seen[seen.length - 1]!;

describe("WebSearch providers over real HTTP", () => {
  it("is read-only, concurrency-safe, open-world, and asks unless a rule allows it", async () => {
    const tool = createWebSearchTool({ env: {} });
    const input = { query: "x y" };
    expect([tool.isReadOnly(input), tool.isConcurrencySafe(input), tool.isOpenWorld?.(input)]).toEqual([
      true,
      true,
      true,
    ]);
    expect((await tool.checkPermissions(input, context())).behavior).toBe("passthrough");
  });

  it("asks Brave with the key header and lists the hits", async () => {
    const env = { BRAVE_API_KEY: "brave-key", KEEL_SEARCH_BASE_URL: server.origin };
    const { data, text } = await search(env, { query: "node fs" });
    expect(lastSeen().path).toBe("/res/v1/web/search");
    expect(lastSeen().query.get("q")).toBe("node fs");
    expect(data.provider).toBe("Brave");
    expect(data.results.map((hit) => hit.title)).toEqual(["Node docs", "Node blog", "Mirror", "MDN"]);
    expect(data.results[0]?.snippet).toBe("The fs module");
    expect(text).toContain("1. Node docs\n   https://nodejs.org/api/fs.html");
    expect(text).toContain("cite the sources");
  });

  it("asks Tavily with a bearer key and passes the domain lists in the body", async () => {
    const env = {
      KEEL_SEARCH_PROVIDER: "tavily",
      TAVILY_API_KEY: "tvly-1",
      KEEL_SEARCH_BASE_URL: server.origin,
    };
    const { data } = await search(env, { query: "node fs", allowed_domains: ["NodeJS.org"] });
    expect(lastSeen().headers.authorization).toBe("Bearer tvly-1");
    expect(lastSeen().body).toMatchObject({ query: "node fs", include_domains: ["nodejs.org"] });
    expect(data.provider).toBe("Tavily");
    expect(data.results.map((hit) => hit.url)).toEqual([
      "https://nodejs.org/api/fs.html",
      "https://blog.nodejs.org/post",
    ]);
  });

  it("asks a SearXNG instance for JSON", async () => {
    const env = { SEARXNG_URL: `${server.origin}/searx` };
    const { data } = await search(env, { query: "web docs", blocked_domains: ["nodejs.org"] });
    expect(lastSeen().path).toBe("/searx/search");
    expect(lastSeen().query.get("format")).toBe("json");
    expect(lastSeen().query.get("q")).toBe("web docs -site:nodejs.org");
    expect(data.provider).toBe("SearXNG");
    expect(data.results.map((hit) => hit.title)).toEqual(["Mirror", "MDN"]);
    expect(data.filteredOut).toBe(3);
  });

  it("settings on the context choose the provider before the environment", async () => {
    const ctx = context();
    ctx.options = {
      ...ctx.options,
      ...{ webSearch: { provider: "searxng", baseUrl: `${server.origin}/searx` } },
    };
    const { data } = await search({ BRAVE_API_KEY: "brave-key" }, { query: "x y" }, ctx);
    expect(data.provider).toBe("SearXNG");
  });
});

describe("WebSearch domain filters", () => {
  const run = (input: Record<string, unknown>) =>
    search({ BRAVE_API_KEY: "brave-key", KEEL_SEARCH_BASE_URL: server.origin }, { query: "node", ...input });

  it.each([
    [{ allowed_domains: ["nodejs.org"] }, ["Node docs", "Node blog"]],
    [{ allowed_domains: ["https://developer.mozilla.org/"] }, ["MDN"]],
    [{ blocked_domains: ["nodejs.org"] }, ["Mirror", "MDN"]],
    [{ blocked_domains: ["evil.io", "mozilla.org"] }, ["Node docs", "Node blog"]],
  ])("%j keeps %j", async (filters, titles) => {
    const { data } = await run(filters);
    expect(data.results.map((hit) => hit.title)).toEqual(titles);
  });

  it("puts a single allowed domain into the query as site:", async () => {
    await run({ allowed_domains: ["nodejs.org"] });
    expect(lastSeen().query.get("q")).toBe("node site:nodejs.org");
  });

  it("refuses both lists at once and malformed domains", async () => {
    const tool = createWebSearchTool({ env: {} });
    const both = await tool.validateInput!(
      { query: "x y", allowed_domains: ["a.com"], blocked_domains: ["b.com"] },
      context(),
    );
    expect(both.result).toBe(false);
    const bad = await tool.validateInput!({ query: "x y", allowed_domains: ["not a domain"] }, context());
    expect(bad.result).toBe(false);
  });
});

describe("WebSearch configuration errors", () => {
  it("without a provider, says how to set one up", async () => {
    const error = await toolError(search({}, { query: "anything" }));
    expect(error.code).toBe("no_search_provider");
    for (const name of ["BRAVE_API_KEY", "TAVILY_API_KEY", "SEARXNG_URL", "KEEL_SEARCH_PROVIDER"])
      expect(error.message).toContain(name);
  });

  it("a chosen provider without its key, or an unknown provider, is named", async () => {
    expect((await toolError(search({ KEEL_SEARCH_PROVIDER: "brave" }, { query: "x y" }))).message).toContain(
      "BRAVE_API_KEY is not set",
    );
    expect((await toolError(search({ KEEL_SEARCH_PROVIDER: "bing" }, { query: "x y" }))).message).toContain(
      '"bing"',
    );
  });

  it("a refused key and a SearXNG instance without JSON output get actionable errors", async () => {
    const brave = await toolError(
      search({ BRAVE_API_KEY: "wrong", KEEL_SEARCH_BASE_URL: server.origin }, { query: "x y" }),
    );
    expect(brave.message).toContain("refused the request (401)");
    const searx = await toolError(search({ SEARXNG_URL: `${server.origin}/forbidden` }, { query: "x y" }));
    expect(searx.message).toContain("search.formats");
  });
});
