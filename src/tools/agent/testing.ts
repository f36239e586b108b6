// Test support for sub-agents: one scripted provider server plays the main loop and every sub-agent,
// each recognised by its request (its first prompt, or the fork directive), each with its own turns.
import type { RecordedRequest, Script, ScriptTurn } from "../../agent/testing/script.ts";

type Turn = ScriptTurn | ((request: RecordedRequest) => ScriptTurn);

export interface Route {
  name: string;
  match: (request: RecordedRequest) => boolean;
  turns: Turn[];
}

interface WireMessage {
  role: string;
  content: unknown;
}

export function messagesOf(request: RecordedRequest): WireMessage[] {
  return (request.body.messages as WireMessage[] | undefined) ?? [];
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: string; text?: string; content?: unknown }) =>
      part.type === "text" ? (part.text ?? "") : part.type === "tool_result" ? contentText(part.content) : "",
    )
    .join("\n");
}

export function firstUserText(request: RecordedRequest): string {
  const first = messagesOf(request).find((message) => message.role === "user");
  return first ? contentText(first.content) : "";
}

/** Everything the request's messages say, tool results included (both protocols). */
export function conversationText(request: RecordedRequest): string {
  return messagesOf(request)
    .map((message) => contentText(message.content))
    .join("\n");
}

export function toolNames(request: RecordedRequest): string[] {
  const tools =
    (request.body.tools as Array<{ name?: string; function?: { name: string } }> | undefined) ?? [];
  return tools.map((tool) => tool.name ?? tool.function?.name ?? "");
}

export function systemText(request: RecordedRequest): string {
  const system = request.body.system as Array<{ text: string }> | undefined;
  if (system) return system.map((part) => part.text).join("\n\n");
  const first = messagesOf(request)[0];
  return first?.role === "system" ? contentText(first.content) : "";
}

export const isFork = (request: RecordedRequest) => request.rawBody.includes("You are now a fork");

export function byPrompt(key: string): (request: RecordedRequest) => boolean {
  return (request) => !isFork(request) && firstUserText(request).includes(key);
}

/** The agent ids (agent_xxxxxxxx) a request mentions, in order. */
export function agentIdsIn(request: RecordedRequest): string[] {
  return [...request.rawBody.matchAll(/agent_[0-9a-f]{8}/g)].map((match) => match[0]);
}

export type RoutedScript = Extract<Script, (...args: never[]) => unknown> & {
  requestsOf(name: string): RecordedRequest[];
};

/** Routes each request to the first route that matches; each route plays its own turns in order. */
export function routedScript(routes: Route[]): RoutedScript {
  const seen = new Map<string, RecordedRequest[]>();
  const script = (request: RecordedRequest): ScriptTurn => {
    const route = routes.find((candidate) => candidate.match(request));
    if (!route) throw new Error(`no route for a request starting "${firstUserText(request).slice(0, 80)}"`);
    const requests = seen.get(route.name) ?? [];
    requests.push(request);
    seen.set(route.name, requests);
    const turn = route.turns[requests.length - 1];
    if (!turn)
      throw new Error(
        `route ${route.name} has ${route.turns.length} turns; request ${requests.length} has none`,
      );
    return typeof turn === "function" ? turn(request) : turn;
  };
  return Object.assign(script, { requestsOf: (name: string) => seen.get(name) ?? [] });
}
