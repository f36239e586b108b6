// Writing a rule into a settings file ("always allow" answers): the file's other keys are kept, a rule
// already there is not repeated, and the write is atomic.
import { parseRuleValue } from "../permissions/rules.ts";
import type { RuleBehavior } from "../permissions/types.ts";
import { atomicWriteJson, readJsonObject } from "./atomicJson.ts";

/** Adds `rule` to permissions.<behavior> of the file at `path`; false when it was already there. */
export function addRuleToSettingsFile(path: string, behavior: RuleBehavior, rule: string): boolean {
  parseRuleValue(rule);
  const settings = readJsonObject(path);
  const permissions =
    settings.permissions !== null &&
    typeof settings.permissions === "object" &&
    !Array.isArray(settings.permissions)
      ? { ...(settings.permissions as Record<string, unknown>) }
      : {};
  const existing = Array.isArray(permissions[behavior]) ? (permissions[behavior] as unknown[]) : [];
  if (existing.includes(rule)) return false;
  permissions[behavior] = [...existing, rule];
  atomicWriteJson(path, { ...settings, permissions });
  return true;
}
