// Compares Keel's print-mode records with Claude Code's, key by key and type by type, record by record
// within each kind (`assistant`, `user`, `system/init`, `result`...), plus the counts a script relies on.
// What Keel deliberately does differently is listed, with the reason, in PRINT_SHAPE_RULES: a key Claude
// Code has that Keel does not produce, a key Keel adds, a value compared by its type only.

export type JsonRecord = Record<string, unknown>;

export interface ShapeRules {
  /** Claude Code's keys Keel leaves out (`kind.path`), with why. */
  notProduced: Record<string, string>;
  /** Keel's keys Claude Code does not have, with why. */
  extras: Record<string, string>;
  /** Compared by their top-level type only: the content is each tool's own. */
  opaque: Record<string, string>;
  /** Claude Code gives null here where Keel gives the value. */
  nullInClaudeCode: Record<string, string>;
  /** Record kinds only Keel emits (Claude Code's parsers skip unknown system subtypes). */
  keelKinds: Record<string, string>;
  /** Result keys whose values must be equal, not only of one type. */
  sameValues: readonly string[];
}

export function kindOf(record: JsonRecord): string {
  return typeof record.subtype === "string" && record.type === "system"
    ? `system/${record.subtype}`
    : String(record.type);
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function compareValue(path: string, claude: unknown, keel: unknown, rules: ShapeRules, out: string[]): void {
  const claudeType = typeOf(claude);
  const keelType = typeOf(keel);
  if (claudeType === "null" && path in rules.nullInClaudeCode) return;
  if (claudeType !== keelType) {
    out.push(`${path}: Claude Code has ${claudeType}, Keel ${keelType}`);
    return;
  }
  if (path in rules.opaque) return;
  if (claudeType === "object") compareObject(path, claude as JsonRecord, keel as JsonRecord, rules, out);
  else if (claudeType === "array") {
    const [first] = claude as unknown[];
    const [keelFirst] = keel as unknown[];
    if (first !== undefined && keelFirst !== undefined)
      compareValue(`${path}[]`, first, keelFirst, rules, out);
  }
}

/** Keys of model-named maps (modelUsage) stand for any model: compared as `*`. */
const MAPS_BY_MODEL = new Set(["result.modelUsage"]);

function compareObject(
  path: string,
  claude: JsonRecord,
  keel: JsonRecord,
  rules: ShapeRules,
  out: string[],
): void {
  if (MAPS_BY_MODEL.has(path)) {
    const [claudeEntry] = Object.values(claude);
    const [keelEntry] = Object.values(keel);
    if (claudeEntry !== undefined && keelEntry !== undefined)
      compareValue(`${path}.*`, claudeEntry, keelEntry, rules, out);
    return;
  }
  for (const key of Object.keys(claude)) {
    const child = `${path}.${key}`;
    if (child in rules.notProduced) continue;
    if (!(key in keel)) out.push(`${child}: missing in Keel (Claude Code has ${typeOf(claude[key])})`);
    else compareValue(child, claude[key], keel[key], rules, out);
  }
  for (const key of Object.keys(keel)) {
    const child = `${path}.${key}`;
    if (!(key in claude) && !(child in rules.extras) && !(child in rules.notProduced))
      out.push(`${child}: Keel's extra key is not documented in the rules`);
  }
}

function byKind(records: readonly JsonRecord[]): Map<string, JsonRecord[]> {
  const kinds = new Map<string, JsonRecord[]>();
  for (const record of records) {
    const kind = kindOf(record);
    kinds.set(kind, [...(kinds.get(kind) ?? []), record]);
  }
  return kinds;
}

/** Every difference between the two outputs of one scenario that the rules do not explain. */
export function compareOutputs(
  claude: readonly JsonRecord[],
  keel: readonly JsonRecord[],
  rules: ShapeRules,
): string[] {
  const out: string[] = [];
  const claudeKinds = byKind(claude);
  const keelKinds = byKind(keel);
  for (const [kind, records] of claudeKinds) {
    const ours = keelKinds.get(kind) ?? [];
    if (ours.length !== records.length)
      out.push(`${kind}: Claude Code has ${records.length} record(s), Keel ${ours.length}`);
    records.forEach((record, index) => {
      const keelRecord = ours[index];
      if (keelRecord) compareObject(kind, record, keelRecord, rules, out);
    });
  }
  for (const kind of keelKinds.keys())
    if (!claudeKinds.has(kind) && !(kind in rules.keelKinds))
      out.push(`${kind}: a kind of record only Keel emits, not documented in the rules`);
  const claudeResult = claudeKinds.get("result")?.[0];
  const keelResult = keelKinds.get("result")?.[0];
  if (claudeResult && keelResult)
    for (const key of rules.sameValues) {
      const expected = JSON.stringify(valueAt(claudeResult, key));
      const actual = JSON.stringify(valueAt(keelResult, key));
      if (expected !== actual) out.push(`result.${key}: Claude Code says ${expected}, Keel ${actual}`);
    }
  return out;
}

function valueAt(record: JsonRecord, path: string): unknown {
  let value: unknown = record;
  for (const part of path.split(".")) value = (value as JsonRecord | undefined)?.[part];
  return value;
}
