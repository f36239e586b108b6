// Checking input against a server's raw JSON Schema with the ajv the MCP SDK ships (loaded on first use,
// by the same on-demand validator the bundled SDK client and server use: one ajv per process).
// A schema ajv cannot compile is "unusable": the input then goes to the server, which checks it itself.
import { clipForEcho } from "../tool/errors.ts";
import type { JSONSchema } from "../tool/Tool.ts";
import { AjvJsonSchemaValidator } from "./ajvOnDemand.ts";

export type CompiledSchema =
  | { kind: "ready"; validate: (input: unknown) => string | undefined }
  | { kind: "unusable"; reason: string };

let shared: AjvJsonSchemaValidator | undefined;

export async function compileJsonSchema(schema: JSONSchema): Promise<CompiledSchema> {
  shared ??= new AjvJsonSchemaValidator();
  try {
    const check = shared.getValidator<unknown>(schema);
    return {
      kind: "ready",
      validate: (input) => {
        const result = check(input);
        // ajv reports every error (allErrors): thousands of stray keys would make a message of megabytes.
        return result.valid ? undefined : clipForEcho(result.errorMessage ?? "invalid input");
      },
    };
  } catch (error) {
    return { kind: "unusable", reason: (error as Error).message };
  }
}
