// Keeping secrets out of the audit log: values of environment variables whose names say key, token,
// secret, password... are replaced wherever they appear, and so are well-known credential shapes.

const SECRET_NAME =
  /(API_?KEY|ACCESS_?KEY|_KEY$|^KEY$|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|PRIVATE|SESSION_?ID)/i;
/** Shorter values are too likely to occur by chance (ports, flags, words). */
const MIN_SECRET_LENGTH = 8;

const CREDENTIAL_SHAPES: Array<[RegExp, string]> = [
  [/sk-ant-[A-Za-z0-9_-]{16,}/g, "[REDACTED:anthropic-key]"],
  [/\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}/g, "[REDACTED:openai-key]"],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}/g, "[REDACTED:github-token]"],
  [/\bgithub_pat_[A-Za-z0-9_]{30,}/g, "[REDACTED:github-token]"],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, "[REDACTED:aws-key]"],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, "[REDACTED:slack-token]"],
  [
    /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    "[REDACTED:private-key]",
  ],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/g, "$1 [REDACTED]"],
];

/** One pass that says whether any credential shape could be present, before trying each. */
const ANY_SHAPE = new RegExp(CREDENTIAL_SHAPES.map(([shape]) => `(?:${shape.source})`).join("|"));

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export type Redactor = <T>(value: T) => T;

/** A redactor for the secrets of this environment, longest values first so overlaps redact fully. */
export function createRedactor(env: NodeJS.ProcessEnv = process.env): Redactor {
  const secrets = Object.entries(env)
    .filter((entry): entry is [string, string] => typeof entry[1] === "string")
    .filter(([name, value]) => isSecretName(name) && value.trim().length >= MIN_SECRET_LENGTH)
    .map(([name, value]) => ({ name, value }))
    .sort((a, b) => b.value.length - a.value.length);

  const redactString = (text: string): string => {
    let result = text;
    for (const { name, value } of secrets)
      if (result.includes(value)) result = result.split(value).join(`[REDACTED:${name}]`);
    if (!ANY_SHAPE.test(result)) return result;
    for (const [shape, replacement] of CREDENTIAL_SHAPES) result = result.replace(shape, replacement);
    return result;
  };

  const walk = (value: unknown, seen: WeakSet<object>): unknown => {
    if (typeof value === "string") return redactString(value);
    if (value === null || typeof value !== "object") return value;
    if (seen.has(value)) return "[circular]";
    seen.add(value);
    if (Array.isArray(value)) return value.map((item) => walk(item, seen));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[redactString(key)] = walk(item, seen);
    return copy;
  };

  return <T>(value: T): T => walk(value, new WeakSet()) as T;
}
