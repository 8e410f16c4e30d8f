import { compareTags, GherkinMessages, Messages, selectableTags, type FeatureSummary } from '@rehearse/contract';
import { badRequest, notFound } from '../http/errors.js';
import {
  appendScenario,
  featureDisplayName,
  formatGherkinError,
  newFeatureText,
  parseFeature,
  removeScenario,
  renameFeature,
  renameScenario,
  replaceScenario,
  setScenarioTags,
  uniqueScenarioName,
  validateFeatureRename,
  validateNewFeatureName,
  validateScenarioRename,
  validateScenarioText,
  type EditResult,
  type GherkinError,
  type ParsedFeature,
} from './gherkin/index.js';
import { Lru } from './lru.js';
import { workspacePath } from './paths.js';
import type { Workspace, WorkspaceService } from './workspace.service.js';
import type { Snapshot } from './workspace.store.js';

export const FEATURES_DIR = 'features';
const STEP_DEFINITIONS_DIR = `${FEATURES_DIR}/step_definitions/`;

/** A feature file as the workspace knows it: its summary plus what edits need. */
export interface FeatureFile {
  path: string;
  oid: string;
  text: string;
  parsed: ParsedFeature | null;
  errors: GherkinError[];
  summary: FeatureSummary;
}

export interface FeatureListing {
  features: FeatureFile[];
  allTags: string[];
  /** `features` and `allTags` serialized once per version of the folder: the features page asks for them often. */
  json: { features: string; allTags: string };
}

/** `checkout` → `features/checkout.feature`; nested names keep their folders. */
export function featurePath(name: string): string {
  return workspacePath(FEATURES_DIR, `${featureDisplayName(name.trim())}.feature`);
}

/** "line N: reason" lines for a refused file. */
export function describeErrors(errors: readonly GherkinError[]): string {
  return errors.map(formatGherkinError).join('\n');
}

/** What the features listing says of one feature file: its scenarios with the tags that select them. */
export function summarize(path: string, text: string, parsed: ParsedFeature | null, errors: GherkinError[]): FeatureSummary {
  const name = path.slice(FEATURES_DIR.length + 1);
  return {
    name,
    path,
    featureName: parsed?.name ?? featureDisplayName(name),
    description: parsed?.description ?? '',
    tags: parsed?.tags ?? [],
    content: text,
    scenarios: (parsed?.scenarios ?? []).map((scenario) => ({
      type: scenario.type,
      name: scenario.name,
      content: scenario.content,
      tags: scenario.tags,
      effectiveTags: scenario.effectiveTags,
      examplesTags: scenario.examples.map((examples) => examples.tags),
      line: scenario.line,
    })),
    errors: errors.map(formatGherkinError),
  };
}

function unwrap(result: EditResult): string {
  if (result.ok) return result.text;
  if (result.problem === 'no-such-scenario') throw notFound(Messages.scenarioNotFound);
  throw badRequest(result.message);
}

/**
 * Features and scenarios. Files are parsed once per git blob (cached by object id), and a whole
 * listing once per version of the features folder, so listing it again costs a ref lookup.
 */
export class FeaturesService {
  private readonly parsedBlobs = new Lru<string, { parsed: ParsedFeature | null; errors: GherkinError[] }>(20_000);
  /** Listings by the object id of `features/` (none: ''): commits that change other files find theirs. */
  private readonly listings = new Lru<string, FeatureListing>(64);
  /** Each feature file by path and blob, with its summary serialized (listings are joined from these). */
  private readonly files = new Lru<string, { feature: FeatureFile; json: string }>(20_000);

  constructor(private readonly workspaces: WorkspaceService) {}

  /**
   * Every feature file of a commit, parsed. A commit usually differs from its parent in one file:
   * files are summarized and serialized once per path and blob, so only that one is read and
   * parsed again.
   */
  async listing(snapshot: Snapshot): Promise<FeatureListing> {
    const tree = (await snapshot.oidAt(FEATURES_DIR)) ?? '';
    const cached = this.listings.get(tree);
    if (cached) return cached;
    const entries = (await snapshot.list(FEATURES_DIR)).filter(
      (entry) => entry.path.endsWith('.feature') && !entry.path.startsWith(STEP_DEFINITIONS_DIR),
    );
    const fileKey = (entry: { path: string; oid: string }) => `${entry.path}\0${entry.oid}`;
    const blobs = await snapshot.git.readBlobs(entries.filter((entry) => !this.files.get(fileKey(entry))).map((entry) => entry.oid));
    const tags = new Set<string>();
    const files = entries.map((entry) => {
      let file = this.files.get(fileKey(entry));
      if (!file) {
        const text = blobs.get(entry.oid)?.toString('utf8') ?? '';
        let parsedBlob = this.parsedBlobs.get(entry.oid);
        if (!parsedBlob) {
          const result = parseFeature(text);
          parsedBlob = result.ok ? { parsed: result.feature, errors: [] } : { parsed: null, errors: result.errors };
          this.parsedBlobs.set(entry.oid, parsedBlob);
        }
        const summary = summarize(entry.path, text, parsedBlob.parsed, parsedBlob.errors);
        file = { feature: { path: entry.path, oid: entry.oid, text, ...parsedBlob, summary }, json: JSON.stringify(summary) };
        this.files.set(fileKey(entry), file);
      }
      for (const scenario of file.feature.summary.scenarios) for (const tag of selectableTags(scenario)) tags.add(tag);
      return file;
    });
    const allTags = [...tags].sort(compareTags);
    const listing = {
      features: files.map((file) => file.feature),
      allTags,
      json: { features: `[${files.map((file) => file.json).join(',')}]`, allTags: JSON.stringify(allTags) },
    };
    this.listings.set(tree, listing);
    return listing;
  }

  async list(ws: Workspace) {
    const [{ features, allTags }, state] = await Promise.all([
      this.workspaces.read(ws).then((snapshot) => this.listing(snapshot)),
      this.workspaces.state.get(ws.projectId, ws.actor.user.id),
    ]);
    return {
      features: features.map((feature) => feature.summary),
      allTags,
      lastActiveFeatureIndex: state?.lastFeatureIndex ?? null,
      lastActiveScenarioIndex: state?.lastScenarioIndex ?? null,
    };
  }

  /**
   * The get-feature-list answer as JSON text, assembled from the per-commit serialization; only the
   * caller's last-active indexes are added per request. Same shape as `list`.
   */
  async listJson(ws: Workspace): Promise<string> {
    const [{ json }, state] = await Promise.all([
      this.workspaces.read(ws).then((snapshot) => this.listing(snapshot)),
      this.workspaces.state.get(ws.projectId, ws.actor.user.id),
    ]);
    return `{"status":true,"features":${json.features},"allTags":${json.allTags},"lastActiveFeatureIndex":${JSON.stringify(state?.lastFeatureIndex ?? null)},"lastActiveScenarioIndex":${JSON.stringify(state?.lastScenarioIndex ?? null)}}`;
  }

  async count(ws: Workspace) {
    const { features } = await this.listing(await this.workspaces.read(ws));
    return { count: features.length, scenarios: features.reduce((sum, f) => sum + f.summary.scenarios.length, 0) };
  }

  /** Adds a scenario (index absent or -1) or replaces one, creating the feature when it does not exist. */
  async pushScenario(
    ws: Workspace,
    input: { name: string; data: string; scenarioIndex?: number | null | undefined; description?: string | undefined },
  ): Promise<{ feature: FeatureSummary; scenarioIndex: number }> {
    let safePath: string | null = null;
    try {
      safePath = featurePath(input.name);
    } catch {
      // A name that is not even a safe path gets the name rules' message below.
    }
    const result = await this.workspaces.write(ws, async (snapshot) => {
      const { features } = await this.listing(snapshot);
      const existing = safePath ? features.find((feature) => feature.path === safePath) : undefined;
      const replacing = input.scenarioIndex !== undefined && input.scenarioIndex !== null && input.scenarioIndex >= 0;
      const language = existing?.parsed?.language ?? 'en';
      const checked = validateScenarioText(input.data, language);
      if (!checked.ok) throw badRequest(describeErrors(checked.errors));
      let text: string;
      let index: number;
      let path = safePath ?? '';
      if (!existing) {
        if (replacing) throw notFound(Messages.featureNotFound);
        const nameCheck = validateNewFeatureName(
          featureDisplayName(input.name.trim()),
          features.map((f) => featureDisplayName(f.summary.name)),
        );
        if (nameCheck.error) throw badRequest(nameCheck.error);
        path = featurePath(nameCheck.name);
        text = unwrap(newFeatureText(nameCheck.name, input.description ?? '', [input.data]));
        index = 0;
      } else {
        if (!existing.parsed && existing.errors.length > 0) throw badRequest(describeErrors(existing.errors));
        const others = (existing.parsed?.scenarios ?? []).filter((_, i) => i !== input.scenarioIndex).map((s) => s.name);
        text = replacing
          ? unwrap(replaceScenario(existing.text, input.scenarioIndex!, input.data))
          : unwrap(appendScenario(existing.text, input.data));
        index = replacing ? input.scenarioIndex! : (existing.parsed?.scenarios.length ?? 0);
        // Duplicate names get a numeric suffix, empty ones become 'Untitled' (spec 02 §5).
        const unique = uniqueScenarioName(checked.scenario.name, others);
        if (unique !== checked.scenario.name) text = unwrap(renameScenario(text, index, unique));
      }
      return {
        changes: [{ path, content: text }],
        message: `[app:scenario.${replacing ? 'update' : 'add'}] feature: ${featureDisplayName(path.slice(FEATURES_DIR.length + 1))}, scenario: ${checked.scenario.name || 'Untitled'}`,
        result: { path, index },
      };
    });
    return { feature: await this.summaryAt(ws, result.path), scenarioIndex: result.index };
  }

  async deleteFeature(ws: Workspace, name: string): Promise<void> {
    const path = featurePath(name);
    await this.workspaces.write(ws, async (snapshot) => {
      if ((await snapshot.readText(path)) === null) throw notFound(Messages.featureNotFound);
      return { changes: [{ path, content: null }], message: `[app:feature.delete] ${name}`, result: {} };
    });
  }

  /** Deletes a scenario; the last one of its feature takes the feature with it (spec 01 §5). */
  async deleteScenario(ws: Workspace, featureName: string, scenarioIndex: number): Promise<{ featureDeleted: boolean }> {
    return this.workspaces.write(ws, async (snapshot) => {
      const feature = await this.editable(snapshot, featureName);
      const scenario = feature.parsed.scenarios[scenarioIndex];
      if (!scenario) throw notFound(Messages.scenarioNotFound);
      const last = feature.parsed.scenarios.length === 1;
      return {
        changes: [{ path: feature.path, content: last ? null : unwrap(removeScenario(feature.text, scenarioIndex)) }],
        message: `[app:scenario.delete] feature: ${featureName}, scenario: ${scenario.name}`,
        result: { featureDeleted: last },
      };
    });
  }

  /** Renames the file and its Feature: line together. */
  async renameFeature(ws: Workspace, oldName: string, newName: string): Promise<FeatureSummary> {
    const oldPath = featurePath(oldName);
    const { path } = await this.workspaces.write(ws, async (snapshot) => {
      const { features } = await this.listing(snapshot);
      const feature = await this.editable(snapshot, oldName);
      const folder = oldPath.slice(0, oldPath.lastIndexOf('/'));
      const siblings = features
        .filter((f) => f.path.startsWith(`${folder}/`))
        .map((f) => featureDisplayName(f.path.slice(folder.length + 1)));
      const check = validateFeatureRename(newName, featureDisplayName(oldPath.slice(folder.length + 1)), siblings);
      if (check.error)
        throw badRequest(check.error === GherkinMessages.featureNameTaken ? GherkinMessages.featureRenameClash : check.error);
      const newPath = workspacePath(folder, `${check.name}.feature`);
      return {
        changes: [
          { path: oldPath, content: null },
          { path: newPath, content: unwrap(renameFeature(feature.text, check.name)) },
        ],
        message: `[app:feature.rename] ${featureDisplayName(oldName)} -> ${check.name}`,
        result: { path: newPath },
      };
    });
    return this.summaryAt(ws, path);
  }

  async renameScenario(ws: Workspace, featureName: string, scenarioIndex: number, newName: string): Promise<FeatureSummary> {
    const { path } = await this.workspaces.write(ws, async (snapshot) => {
      const feature = await this.editable(snapshot, featureName);
      const scenario = feature.parsed.scenarios[scenarioIndex];
      if (!scenario) throw notFound(Messages.scenarioNotFound);
      const check = validateScenarioRename(
        newName,
        scenario.name,
        feature.parsed.scenarios.map((s) => s.name),
      );
      if (check.error) throw badRequest(check.error);
      return {
        changes: [{ path: feature.path, content: unwrap(renameScenario(feature.text, scenarioIndex, check.name)) }],
        message: `[app:scenario.rename] feature: ${featureName}, ${scenario.name} -> ${check.name}`,
        result: { path: feature.path },
      };
    });
    return this.summaryAt(ws, path);
  }

  async setScenarioTags(ws: Workspace, featureName: string, scenarioIndex: number, tags: string[]): Promise<FeatureSummary> {
    const normalized = [
      ...new Set(
        tags
          .map((tag) => tag.trim())
          .filter(Boolean)
          .map((tag) => (tag.startsWith('@') ? tag : `@${tag}`)),
      ),
    ];
    const { path } = await this.workspaces.write(ws, async (snapshot) => {
      const feature = await this.editable(snapshot, featureName);
      const scenario = feature.parsed.scenarios[scenarioIndex];
      if (!scenario) throw notFound(Messages.scenarioNotFound);
      return {
        changes: [{ path: feature.path, content: unwrap(setScenarioTags(feature.text, scenarioIndex, normalized)) }],
        message: `[app:scenario.tags] feature: ${featureName}, scenario: ${scenario.name}, tags: ${normalized.join(' ') || '(none)'}`,
        result: { path: feature.path },
      };
    });
    return this.summaryAt(ws, path);
  }

  private async editable(snapshot: Snapshot, name: string): Promise<FeatureFile & { parsed: ParsedFeature }> {
    const path = featurePath(name);
    const feature = (await this.listing(snapshot)).features.find((f) => f.path === path);
    if (!feature) throw notFound(Messages.featureNotFound);
    if (!feature.parsed) throw badRequest(feature.errors.length > 0 ? describeErrors(feature.errors) : Messages.featureNotFound);
    return feature as FeatureFile & { parsed: ParsedFeature };
  }

  private async summaryAt(ws: Workspace, path: string): Promise<FeatureSummary> {
    const feature = (await this.listing(await this.workspaces.read(ws))).features.find((f) => f.path === path);
    if (!feature) throw notFound(Messages.featureNotFound);
    return feature.summary;
  }
}
