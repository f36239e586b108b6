// `${VAR}` and `${VAR:-default}` in MCP server configs, with the shell's meaning of `:-` (unset or empty).
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expansion {
  value: string;
  /** Variables referenced without a default that are not set; their references are left as written. */
  missing: string[];
}

export function expandEnvVars(text: string, env: NodeJS.ProcessEnv): Expansion {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const set = env[name];
    if (fallback !== undefined) return set === undefined || set === "" ? fallback : set;
    if (set === undefined) {
      missing.push(name);
      return whole;
    }
    return set;
  });
  return { value, missing };
}

/** Expands every string inside a JSON value (keys are left alone), collecting missing variables. */
export function expandEnvDeep<T>(value: T, env: NodeJS.ProcessEnv, missing: Set<string>): T {
  if (typeof value === "string") {
    const expanded = expandEnvVars(value, env);
    for (const name of expanded.missing) missing.add(name);
    return expanded.value as T;
  }
  if (Array.isArray(value)) return value.map((item) => expandEnvDeep(item, env, missing)) as T;
  if (value !== null && typeof value === "object") {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) result[key] = expandEnvDeep(item, env, missing);
    return result as T;
  }
  return value;
}
