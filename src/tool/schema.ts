// zod -> JSON Schema for the model APIs, with zod 4's own converter. Cached per tool.
import * as z from "zod";
import type { JSONSchema, Tool } from "./Tool.ts";

const cache = new WeakMap<Tool, JSONSchema>();

export function toolInputJSONSchema(tool: Tool): JSONSchema {
  if (tool.inputJSONSchema) return tool.inputJSONSchema;
  let schema = cache.get(tool);
  if (!schema) {
    const converted = z.toJSONSchema(tool.inputSchema, { io: "input", unrepresentable: "any" }) as JSONSchema;
    delete converted.$schema;
    schema = converted;
    cache.set(tool, schema);
  }
  return schema;
}

export function toolOutputJSONSchema(tool: Tool): JSONSchema | undefined {
  if (!tool.outputSchema) return undefined;
  const converted = z.toJSONSchema(tool.outputSchema, { io: "output", unrepresentable: "any" }) as JSONSchema;
  delete converted.$schema;
  return converted;
}

export interface AnthropicToolDefinition {
  name: string;
  description: string;
  input_schema: JSONSchema;
}

export interface OpenAIToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: JSONSchema; strict?: boolean };
}

export async function toAnthropicToolDefinition(
  tool: Tool,
  tools: readonly Tool[],
): Promise<AnthropicToolDefinition> {
  return {
    name: tool.name,
    description: await tool.prompt({ tools }),
    input_schema: toolInputJSONSchema(tool),
  };
}

export async function toOpenAIToolDefinition(
  tool: Tool,
  tools: readonly Tool[],
): Promise<OpenAIToolDefinition> {
  return {
    type: "function",
    function: {
      name: tool.name,
      description: await tool.prompt({ tools }),
      parameters: toolInputJSONSchema(tool),
      ...(tool.strict ? { strict: true } : {}),
    },
  };
}
