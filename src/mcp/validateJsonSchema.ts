// Checking input against a server's raw JSON Schema with the ajv the MCP SDK ships (loaded on first use).
// A schema ajv cannot compile is "unusable": the input then goes to the server, which checks it itself.
import type { JSONSchema } from "../tool/Tool.ts";

export type CompiledSchema =
  | { kind: "ready"; validate: (input: unknown) => string | undefined }
  | { kind: "unusable"; reason: string };

type Validator = import("@modelcontextprotocol/sdk/validation/ajv").AjvJsonSchemaValidator;
let shared: Promise<Validator> | undefined;

function validatorInstance(): Promise<Validator> {
  shared ??= import("@modelcontextprotocol/sdk/validation/ajv").then(
    ({ AjvJsonSchemaValidator }) => new AjvJsonSchemaValidator(),
  );
  return shared;
}

export async function compileJsonSchema(schema: JSONSchema): Promise<CompiledSchema> {
  const ajv = await validatorInstance();
  try {
    const check = ajv.getValidator<unknown>(schema);
    return {
      kind: "ready",
      validate: (input) => {
        const result = check(input);
        return result.valid ? undefined : (result.errorMessage ?? "invalid input");
      },
    };
  } catch (error) {
    return { kind: "unusable", reason: (error as Error).message };
  }
}
