// WebFetch of a 1 MB HTML page from a server on 127.0.0.1: the whole tool call (fetch + HTML -> Markdown)
// against fetching alone. WebFetch converts a long page only as far as it can show (100,000 chars of
// Markdown), so a row shows what converting the whole page would cost. References, measured in the same run: WebFetch's own HTTP layer without
// conversion (the ratio that matters), and Node's built-in fetch().

import { createToolUseContext } from "../src/tool/createContext.ts";
import { httpGet } from "../src/tools/web-fetch/httpGet.ts";
import { htmlToMarkdown } from "../src/tools/web-fetch/pageContent.ts";
import { startTestServer } from "../src/tools/web-fetch/testServer.ts";
import { createWebFetchTool } from "../src/tools/web-fetch/WebFetchTool.ts";
import { printTable, ratio, summarize } from "./stats.ts";

function page(targetBytes: number): string {
  const section = (i: number) =>
    `<section id="s${i}"><h2>Section ${i}</h2><p>Keel runs every tool call through one governed pipeline: schema, <b>validation</b>, permissions, <a href="/docs/${i}">hooks</a> and a result budget.</p>` +
    `<ul><li>Read-only tools run in parallel</li><li>Writes run alone</li><li><code>Bash</code> errors cancel siblings</li></ul>` +
    `<table><tr><th>Tool</th><th>Limit</th></tr><tr><td>Grep</td><td>20,000</td></tr><tr><td>Bash</td><td>30,000</td></tr></table>` +
    `<pre><code>const result = await runToolUse(block, context);\n</code></pre><script>track(${i})</script></section>`;
  const parts = [
    "<!doctype html><html><head><title>Bench</title><style>body{font:14px sans-serif}</style></head><body>",
  ];
  let size = parts[0]!.length;
  for (let i = 0; size < targetBytes; i++) {
    const chunk = section(i);
    parts.push(chunk);
    size += chunk.length;
  }
  parts.push("</body></html>");
  return parts.join("");
}

const html = Buffer.from(page(1024 * 1024));
const server = await startTestServer({
  "/page": (_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html),
});
const url = `${server.origin}/page`;
const tool = createWebFetchTool({ cacheTtlMs: 0 });
const context = createToolUseContext({ tools: [tool], allow: ["WebFetch(domain:127.0.0.1)"] });

async function time(run: () => Promise<unknown>, warmup: number, iterations: number): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples;
}

const ITERATIONS = 15;
const signal = new AbortController().signal;
const httpOnly = summarize(
  await time(
    () => httpGet(new URL(url), { signal, maxBytes: 10 * 1024 * 1024, allowPrivate: true }),
    3,
    ITERATIONS,
  ),
);
const builtinFetch = summarize(await time(() => fetch(url).then((r) => r.text()), 3, ITERATIONS));
let markdownChars = 0;
const webFetch = summarize(
  await time(
    async () => {
      const result = await tool.call(
        { url, prompt: "summarize" },
        context,
        async () => ({ behavior: "allow" }),
        undefined,
        () => {},
      );
      if (result.data.kind === "page") markdownChars = result.data.markdownChars;
    },
    2,
    ITERATIONS,
  ),
);
// What converting the whole page would cost: WebFetch converts only as much as it can show.
const htmlText = html.toString("utf8");
const wholeConversion = summarize(await time(async () => htmlToMarkdown(htmlText), 1, 5));
const cachedTool = createWebFetchTool();
await cachedTool.call(
  { url, prompt: "x" },
  context,
  async () => ({ behavior: "allow" }),
  undefined,
  () => {},
);
const cached = summarize(
  await time(
    () =>
      cachedTool.call(
        { url, prompt: "x" },
        context,
        async () => ({ behavior: "allow" }),
        undefined,
        () => {},
      ),
    3,
    ITERATIONS,
  ),
);
await server.close();

process.stdout.write(
  `1 MB HTML page (${html.length} bytes) from 127.0.0.1 -> ${markdownChars} chars of Markdown; ${ITERATIONS} runs each, ms\n`,
);
printTable([
  {
    case: "WebFetch HTTP layer only (reference)",
    median: httpOnly.median,
    p99: httpOnly.p99,
    ratio: "1.00x",
  },
  {
    case: "Node fetch().text()",
    median: builtinFetch.median,
    p99: builtinFetch.p99,
    ratio: ratio(builtinFetch.median, httpOnly.median),
  },
  {
    case: "WebFetch tool: fetch + conversion",
    median: webFetch.median,
    p99: webFetch.p99,
    ratio: ratio(webFetch.median, httpOnly.median),
  },
  {
    case: "whole-page conversion alone (not done)",
    median: wholeConversion.median,
    p99: wholeConversion.p99,
    ratio: ratio(wholeConversion.median, httpOnly.median),
  },
  {
    case: "WebFetch tool: cache hit",
    median: cached.median,
    p99: cached.p99,
    ratio: ratio(cached.median, httpOnly.median),
  },
]);
process.stdout.write(
  `\nfetch + conversion vs fetch alone: ${ratio(webFetch.median, httpOnly.median)} (conversion ≈ ${(webFetch.median - httpOnly.median).toFixed(0)} ms per MB)\n`,
);
