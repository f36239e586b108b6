// Which API `keel run` speaks: --provider, else the model's name, else the one key that is set; a
// --base-url never picks a protocol by itself. Real runs against the scripted servers.
import { afterEach, describe, expect, it } from "vitest";
import { startServer, TEST_KEY } from "../../agent/testing/harness.ts";
import { text } from "../../agent/testing/script.ts";
import type { ScriptedServer } from "../../agent/testing/server.ts";
import { keelWorld, runKeel } from "../testing/keelProcess.ts";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(protocol: "anthropic" | "openai"): Promise<ScriptedServer> {
  const server = await startServer(protocol, [{ blocks: [text(`answered over ${protocol}`)] }]);
  servers.push(server);
  return server;
}

describe("keel run: the provider is chosen, never guessed from a URL", () => {
  it("only ANTHROPIC_API_KEY and a base URL without 'anthropic' in it: Anthropic's protocol", async () => {
    const w = keelWorld();
    const server = await serve("anthropic");
    const result = await runKeel(["run", "--base-url", server.url, "--model", "my-proxy-model", "hi"], w);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("answered over anthropic\n");
    expect(server.requests[0]!.path).toMatch(/\/v1\/messages$/);
  });

  it("only OPENAI_API_KEY: the OpenAI protocol", async () => {
    const w = keelWorld();
    delete w.env.ANTHROPIC_API_KEY;
    w.env.OPENAI_API_KEY = TEST_KEY;
    const server = await serve("openai");
    const result = await runKeel(
      ["run", "--base-url", `${server.url}/v1`, "--model", "local-model", "hi"],
      w,
    );
    expect(result.stdout).toBe("answered over openai\n");
  });

  it("no key and a local server: refused, saying which flag picks the protocol", async () => {
    const w = keelWorld();
    delete w.env.ANTHROPIC_API_KEY;
    // Keel's own key variable says nothing about the protocol either.
    w.env.KEEL_API_KEY = TEST_KEY;
    const server = await serve("openai");
    const refused = await runKeel(["run", "--base-url", `${server.url}/v1`, "--model", "llama3", "hi"], w);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /cannot tell which API .* speaks .*--provider openai for an OpenAI-compatible server/,
    );
    expect(server.requests).toHaveLength(0);
    const chosen = await runKeel(
      ["run", "--provider", "openai", "--base-url", `${server.url}/v1`, "--model", "llama3", "hi"],
      w,
    );
    expect(chosen.stdout).toBe("answered over openai\n");
  });

  it("both keys and no model named: Claude, the default model, said once on stderr", async () => {
    const w = keelWorld();
    w.env.OPENAI_API_KEY = TEST_KEY;
    const server = await serve("anthropic");
    // The official endpoints are out of reach here; ANTHROPIC_BASE_URL points the chosen provider at the
    // scripted server without naming a protocol (OPENAI_BASE_URL is set too, so it decides nothing).
    w.env.ANTHROPIC_BASE_URL = server.url;
    w.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    const result = await runKeel(["run", "hi"], w);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("answered over anthropic\n");
    expect(server.requests[0]!.body.model).toBe("claude-sonnet-4-6");
    const notes = result.stderr.split("\n").filter((line) => line.includes("Both ANTHROPIC_API_KEY"));
    expect(notes).toEqual([
      "keel: Both ANTHROPIC_API_KEY and OPENAI_API_KEY are set and no model is named: using the default model, claude-sonnet-4-6 (Anthropic). For OpenAI pass --provider openai or --model gpt-4.1.",
    ]);
    // A configured default model picks its own provider, silently.
    const openai = await serve("openai");
    w.env.OPENAI_BASE_URL = `${openai.url}/v1`;
    const byModel = await runKeel(["run", "--model", "gpt-4.1-mini", "hi"], w);
    expect(byModel.stdout).toBe("answered over openai\n");
    expect(byModel.stderr).toBe("");
  });

  it("both keys and a model name that says nothing: refused with the flag to pass", async () => {
    const w = keelWorld();
    w.env.OPENAI_API_KEY = TEST_KEY;
    const result = await runKeel(["run", "--model", "llama3", "hi"], w);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /Both ANTHROPIC_API_KEY and OPENAI_API_KEY are set and the model name "llama3"/,
    );
  });

  it("a base URL without /v1 for an OpenAI-compatible server: the 404 says to check --base-url", async () => {
    const w = keelWorld();
    const server = await serve("openai");
    const result = await runKeel(
      ["run", "--provider", "openai", "--base-url", server.url, "--model", "llama3", "hi"],
      w,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^keel: stopped \(error\): The OpenAI-compatible endpoint at http:\/\/127\.0\.0\.1:\d+ answered 404 \(not found\)\. Check --base-url \(OpenAI-compatible servers usually end in \/v1\)/,
    );
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
