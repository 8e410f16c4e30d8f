import { generate, stepLines, STEP_DEFINITIONS_DIR } from '@rehearse/codegen';
import { effectsFileOf, Messages, StepEffectsFile, type RecordedCommand, type RecordedEffect } from '@rehearse/contract';
import { badRequest, notFound } from '../http/errors.js';
import { describeErrors, featurePath, FEATURES_DIR, type FeaturesService } from '../workspace/features.service.js';
import {
  appendScenario,
  featureDisplayName,
  newFeatureText,
  parseFeature,
  renameScenario,
  replaceScenario,
  uniqueScenarioName,
  validateNewFeatureName,
  validateScenarioText,
  type EditResult,
} from '../workspace/gherkin/index.js';
import type { TestDataService } from '../workspace/test-data.service.js';
import type { Workspace, WorkspaceService } from '../workspace/workspace.service.js';
import type { Snapshot } from '../workspace/workspace.store.js';

export interface PublishInput {
  featureName: string;
  scenarioName: string;
  commands: RecordedCommand[];
  env: string;
  /** Re-record one step of an existing scenario (ai_learn): only that step's line and code change. */
  stepIndex?: number | undefined;
}

/** How many lines from `from` hold the argument of the step just before them (a data table, or a doc string). */
function stepArgumentLines(lines: readonly string[], from: number): number {
  let end = from;
  while (end < lines.length) {
    const line = lines[end]!.trim();
    if (line.startsWith('|')) end++;
    else if (line.startsWith('"""') || line.startsWith('```')) {
      const fence = line.slice(0, 3);
      end++;
      while (end < lines.length && !lines[end]!.trim().startsWith(fence)) end++;
      end++;
    } else break;
  }
  return Math.min(end, lines.length) - from;
}

export interface PublishResult {
  featureName: string;
  scenarioName: string;
  scenarioIndex: number;
  commit: string;
  files: string[];
  missingTestData: string[];
}

function unwrap(result: EditResult): string {
  if (result.ok) return result.text;
  if (result.problem === 'no-such-scenario') throw notFound(Messages.scenarioNotFound);
  throw badRequest(result.message);
}

/**
 * Publishes a recording: the scenario (new or appended to a feature, or one step replaced), the
 * page step files and locator files, all in one workspace commit
 * `[recorder] scenario: …, feature: …, branch: …, env: …` (DESIGN §11).
 */
export class RecordingPublisher {
  constructor(
    private readonly workspaces: WorkspaceService,
    private readonly features: FeaturesService,
    private readonly testData: TestDataService,
  ) {}

  async publish(ws: Workspace, input: PublishInput): Promise<PublishResult> {
    const steps = input.commands.filter((c) => input.stepIndex === undefined || c.type !== 'navigate');
    if (steps.length === 0 || (input.stepIndex === undefined && !steps.some((c) => c.type !== 'navigate'))) {
      throw badRequest(Messages.recorderNothingToPublish);
    }
    const known = new Set((await this.testData.list(ws)).map((row) => row.key));
    const result = await this.workspaces.write(ws, async (snapshot) => {
      const existing = new Map<string, string>();
      const entries = (await snapshot.list(STEP_DEFINITIONS_DIR)).filter((e) => e.path.endsWith('.mjs') || e.path.endsWith('.json'));
      const blobs = await snapshot.git.readBlobs(entries.map((e) => e.oid));
      for (const entry of entries) existing.set(entry.path, blobs.get(entry.oid)?.toString('utf8') ?? '');

      const { features } = await this.features.listing(snapshot);
      let path: string;
      try {
        path = featurePath(input.featureName);
      } catch {
        throw badRequest(validateNewFeatureName(input.featureName, []).error ?? Messages.featureNotFound);
      }
      const feature = features.find((f) => f.path === path);
      const scenarioName = input.scenarioName.trim() || 'Untitled';
      const generated = generate({ scenarioName, commands: steps, existing });

      let text: string;
      let index: number;
      let finalName = scenarioName;
      if (input.stepIndex !== undefined) {
        // ai_learn: the named scenario keeps every line but the re-recorded step.
        if (!feature?.parsed) throw notFound(Messages.featureNotFound);
        index = feature.parsed.scenarios.findIndex((s) => s.name === scenarioName);
        const scenario = feature.parsed.scenarios[index];
        if (!scenario) throw notFound(Messages.scenarioNotFound);
        const lines = scenario.content.split('\n');
        const stepsInScenario = lines.map((line, i) => ({ line, i })).filter(({ line }) => /^\s*(Given|When|Then|And|But|\*)\s/.test(line));
        const target = stepsInScenario[input.stepIndex];
        if (!target) throw badRequest(Messages.scenarioNotFound);
        const indent = /^\s*/.exec(target.line)?.[0] ?? '    ';
        const keyword = /^\s*(\S+)/.exec(target.line)?.[1] ?? 'When';
        const replacement = generated.steps.flatMap((s, i) => stepLines(s, indent, i === 0 ? keyword : 'And'));
        lines.splice(target.i, 1 + stepArgumentLines(lines, target.i + 1), ...replacement);
        text = unwrap(replaceScenario(feature.text, index, lines.join('\n')));
      } else if (feature) {
        if (!feature.parsed) throw badRequest(describeErrors(feature.errors));
        const others = feature.parsed.scenarios.map((s) => s.name);
        text = unwrap(appendScenario(feature.text, generated.scenarioText));
        index = feature.parsed.scenarios.length;
        finalName = uniqueScenarioName(scenarioName, others);
        if (finalName !== scenarioName) text = unwrap(renameScenario(text, index, finalName));
      } else {
        const check = validateNewFeatureName(
          featureDisplayName(input.featureName.trim()),
          features.map((f) => featureDisplayName(f.summary.name)),
        );
        if (check.error) throw badRequest(check.error);
        const checked = validateScenarioText(generated.scenarioText);
        if (!checked.ok) throw badRequest(describeErrors(checked.errors));
        path = featurePath(check.name);
        text = unwrap(newFeatureText(check.name, '', [generated.scenarioText]));
        index = 0;
      }
      if (!parseFeature(text).ok) throw badRequest(Messages.recorderNothingToPublish);
      const featureLabel = featureDisplayName(path.slice(FEATURES_DIR.length + 1));
      const effects = await effectsChange(snapshot, path, finalName, generated.effects, input.stepIndex !== undefined);
      return {
        changes: [{ path, content: text }, ...generated.files, ...effects],
        message: `[recorder] scenario: ${finalName}, feature: ${featureLabel}, branch: ${ws.branch}, env: ${input.env}`,
        result: {
          featureName: featureLabel,
          scenarioName: finalName,
          scenarioIndex: index,
          files: [path, ...generated.files.map((f) => f.path)],
          missingTestData: generated.secretKeys.filter((key) => !known.has(key)),
        },
      };
    });
    return result;
  }
}

/**
 * The feature's effects file with this scenario's recorded effects (what each generated step
 * visibly did), so a healed step can be held to them on replay. A whole recording replaces the
 * scenario's entry; a re-recorded step (ai_learn) leaves it, since its occurrences shift.
 */
async function effectsChange(
  snapshot: Snapshot,
  featureFile: string,
  scenarioName: string,
  effects: Record<string, (RecordedEffect | null)[]>,
  oneStep: boolean,
): Promise<{ path: string; content: string }[]> {
  const file = effectsFileOf(featureFile);
  const existingText = await snapshot.readText(file);
  let existing: StepEffectsFile = {};
  if (existingText !== null) {
    try {
      const parsed = StepEffectsFile.safeParse(JSON.parse(existingText));
      existing = parsed.success ? parsed.data : {};
    } catch {
      // A hand-broken file is replaced by what this recording knows.
    }
  }
  if (oneStep || (Object.keys(effects).length === 0 && !(scenarioName in existing))) return [];
  const next: StepEffectsFile = { ...existing };
  if (Object.keys(effects).length > 0) next[scenarioName] = effects;
  else delete next[scenarioName];
  return [{ path: file, content: `${JSON.stringify(next, null, 2)}\n` }];
}
