/** How long a project's summed artifact bytes are trusted before they are summed again. */
export const ARTIFACT_USAGE_MAX_AGE_MS = 30_000;

/**
 * What each project's artifacts weigh, for the quota check of every upload. Summing a project's
 * artifacts is linear in how many it keeps (19 ms at 150,000 on PGlite, and a scenario uploads
 * four or five), so a project's sum is taken at most once per `maxAgeMs` and what this server
 * stores meanwhile is added to it. Bytes another server stored, or a retention sweep freed, count
 * from the next sum: the quota is a bound on growth, not a lock, and stays one.
 */
export class ArtifactUsage {
  private readonly measured = new Map<string, { bytes: number; at: number }>();

  constructor(
    private readonly sum: (projectId: string) => Promise<number>,
    private readonly maxAgeMs = ARTIFACT_USAGE_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The project's artifact bytes, as last summed plus what this server stored since. */
  async bytes(projectId: string): Promise<number> {
    const known = this.measured.get(projectId);
    if (known && this.now() - known.at < this.maxAgeMs) return known.bytes;
    const at = this.now();
    const bytes = await this.sum(projectId);
    this.measured.set(projectId, { bytes, at });
    return bytes;
  }

  /** This server stored `size` new bytes for the project. */
  stored(projectId: string, size: number): void {
    const known = this.measured.get(projectId);
    if (known) known.bytes += size;
  }
}
