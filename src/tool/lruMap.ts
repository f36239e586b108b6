// A Map that keeps at most `limit` entries: reading or writing an entry makes it the newest, and the
// oldest is dropped past the limit. For the small in-process caches (compiled patterns, scans, reads).

export class LruMap<K, V> extends Map<K, V> {
  readonly #limit: number;

  constructor(limit: number) {
    super();
    this.#limit = limit;
  }

  override get(key: K): V | undefined {
    if (!super.has(key)) return undefined;
    const value = super.get(key) as V;
    super.delete(key);
    super.set(key, value);
    return value;
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    while (this.size > this.#limit) super.delete(super.keys().next().value as K);
    return this;
  }
}
