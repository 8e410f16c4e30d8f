import { performance } from 'node:perf_hooks';

export interface RowCacheOptions {
  /** Entries kept; the least recently used go first. */
  maxEntries: number;
  /** How long an entry may be answered at most, whatever happens: a backstop, not the rule. */
  ttlMs: number;
}

interface Entry<V> {
  value: V;
  /** performance.now() when stored: monotonic, so a wall-clock jump neither keeps nor drops entries. */
  storedAt: number;
}

/**
 * Rows read by key, kept in memory for a repository that is the only writer of them: bounded (least
 * recently used first out) and aged (a TTL as a backstop). Exact when the repository forgets a
 * key after each statement that changes its row: a read that was under way while anything was
 * forgotten does not keep what it read, since it may have read the row as it was before.
 * Answers copies made by `copy`, so a caller that changes its answer changes nothing kept.
 */
export class RowCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Moves on at every forget. */
  private generation = 0;
  private hitCount = 0;
  private missCount = 0;

  constructor(
    private readonly options: RowCacheOptions,
    private readonly copy: (value: V) => V,
  ) {}

  /**
   * The kept value of `key`, or `load`'s answer. What `keep` makes of the answer is kept (nothing
   * when it answers undefined), unless something was forgotten while `load` ran.
   */
  async read<R>(key: string, load: () => Promise<R>, keep: (found: R) => V | undefined): Promise<R | V> {
    const hit = this.lookup(key);
    if (hit !== undefined) return this.copy(hit.value);
    const generation = this.generation;
    const found = await load();
    const kept = keep(found);
    if (kept !== undefined && generation === this.generation) this.store(key, this.copy(kept));
    return found;
  }

  forget(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  /** Forgets every entry `matches` picks (a scan: for changes rarer than reads). */
  forgetWhere(matches: (key: string, value: V) => boolean): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (matches(key, entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  stats(): { hits: number; misses: number; size: number } {
    return { hits: this.hitCount, misses: this.missCount, size: this.entries.size };
  }

  private lookup(key: string): Entry<V> | undefined {
    const entry = this.entries.get(key);
    if (!entry || performance.now() - entry.storedAt > this.options.ttlMs) {
      if (entry) this.entries.delete(key);
      this.missCount += 1;
      return undefined;
    }
    // A Map keeps insertion order: taking the entry out and back in makes it the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hitCount += 1;
    return entry;
  }

  private store(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, storedAt: performance.now() });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
