// `import { toAISDKTools, toAnthropicTools, toOpenAITools, runModelToolCalls } from "keel/adapters"`.
// A separate entry so that `import "keel"` does not load the AI SDK.
export * from "./aiSdk.ts";
export * from "./rawTools.ts";
