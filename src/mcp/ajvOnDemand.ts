// The MCP SDK's JSON Schema validator, loaded when a schema is first checked. The SDK's server and
// client import their ajv provider at the top, so every `keel mcp` start evaluated ajv (~200 KB) and
// built an ajv instance before the first tools/list, which needs neither. The CLI bundle
// (scripts/bundle-cli.mjs) puts this class in place of that import; it hands every call to the
// SDK's own provider (its CommonJS build, required on first use), so checks are exactly the SDK's.
import { createRequire } from "node:module";
import type { AjvJsonSchemaValidator as SdkValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from "@modelcontextprotocol/sdk/validation/types.js";

type SdkProvider = typeof import("@modelcontextprotocol/sdk/validation/ajv");

const requireModule = createRequire(import.meta.url);

export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  readonly #ajv: unknown;
  #sdk: SdkValidator | undefined;

  /** `ajv`: an Ajv instance to use instead of the SDK's default one, as the SDK's class takes. */
  constructor(ajv?: unknown) {
    this.#ajv = ajv;
  }

  /** Whether the SDK's provider (and ajv) has been loaded: only once a schema was checked. */
  get loaded(): boolean {
    return this.#sdk !== undefined;
  }

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    if (!this.#sdk) {
      const { AjvJsonSchemaValidator: Sdk } = requireModule(
        "@modelcontextprotocol/sdk/validation/ajv",
      ) as SdkProvider;
      this.#sdk = new Sdk(this.#ajv as ConstructorParameters<typeof Sdk>[0]);
    }
    return this.#sdk.getValidator<T>(schema);
  }
}
