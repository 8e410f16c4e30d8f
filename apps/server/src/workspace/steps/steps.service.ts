import {
  API_STEP_PATTERNS,
  BUILT_IN_STEP_PATTERNS,
  Messages,
  parseReusableSteps,
  stepTextProblem,
  suggestSteps,
  type ReusableStep,
  type StepDefinitionRef,
  type StepInfo,
} from '@rehearse/contract';
import { badRequest, notFound } from '../../http/errors.js';
import { FEATURES_DIR, featurePath, type FeaturesService } from '../features.service.js';
import { parseFeature, type ParsedScenario, type ParsedStep } from '../gherkin/index.js';
import { Lru } from '../lru.js';
import { workspacePath } from '../paths.js';
import type { Workspace, WorkspaceService } from '../workspace.service.js';
import type { Snapshot } from '../workspace.store.js';
import { removeDefinitions, scanStepDefinitions, StepMatcher, type StepDefinition } from '@rehearse/codegen';

export const STEP_DEFINITIONS_DIR = `${FEATURES_DIR}/step_definitions`;
const CODE_FILE = /\.(mjs|js|cjs)$/;
const BUILT_IN: StepDefinition[] = [...BUILT_IN_STEP_PATTERNS, ...API_STEP_PATTERNS].map((pattern) => ({
  uri: '',
  keyword: 'Step',
  pattern,
  isRegex: false,
  line: 0,
  start: 0,
  end: 0,
  source: 'user',
  implementedAt: null,
}));

interface CodeFile {
  path: string;
  oid: string;
  text: string;
  definitions: StepDefinition[];
  error: string | null;
  lastChanged: string | null;
}

interface StepIndex {
  files: CodeFile[];
  /** The project's definitions first, then the built-in steps: a project can override a built-in. */
  definitions: StepDefinition[];
  matcher: StepMatcher;
}

/**
 * Steps as written. Outline steps keep their `<name>` placeholders: inside quotes they still match
 * `{string}`, which is how generated and built-in steps take their values.
 */
function stepTexts(scenario: ParsedScenario, backgroundSteps: ParsedScenario['steps'] = []) {
  return [...backgroundSteps, ...scenario.steps].map((step) => ({ step, text: step.text }));
}

/**
 * The steps of a text being edited: a whole feature, or one scenario as the editor holds it (no
 * Feature line: it is read under one, and lines keep their numbers). A text that does not parse has
 * none: the editor shows the parser's error instead.
 */
function stepsOfText(text: string): ParsedStep[] {
  const whole = parseFeature(text);
  const parsed = whole.ok && whole.feature ? whole : parseFeature(`Feature: editing\n${text}`);
  if (!parsed.ok || !parsed.feature) return [];
  const shift = parsed === whole ? 0 : 1;
  const { feature } = parsed;
  const steps = [
    ...(feature.background?.steps ?? []),
    ...feature.rules.flatMap((rule) => rule.background?.steps ?? []),
    ...feature.scenarios.flatMap((scenario) => scenario.steps),
  ];
  return steps.map((step) => ({ ...step, line: step.line - shift }));
}

/**
 * Steps and their code: which step definition (generated, hand-written or built-in) implements
 * each step, matched as cucumber-js matches them, and which definitions nothing uses.
 */
export class StepsService {
  private readonly indexes = new Lru<string, StepIndex>(32);
  private readonly answers = new Lru<string, string>(16);
  private readonly scans = new Lru<string, { definitions: StepDefinition[]; error: string | null }>(5_000);

  constructor(
    private readonly workspaces: WorkspaceService,
    private readonly features: FeaturesService,
  ) {}

  private async index(snapshot: Snapshot): Promise<StepIndex> {
    const cached = this.indexes.get(snapshot.commit);
    if (cached) return cached;
    const entries = (await snapshot.list(STEP_DEFINITIONS_DIR)).filter((entry) => CODE_FILE.test(entry.path));
    const blobs = await snapshot.git.readBlobs(entries.map((entry) => entry.oid));
    const files = await Promise.all(
      entries.map(async (entry) => {
        const text = blobs.get(entry.oid)?.toString('utf8') ?? '';
        let scan = this.scans.get(`${entry.oid}:${entry.path}`);
        if (!scan) {
          scan = scanStepDefinitions(entry.path, text);
          this.scans.set(`${entry.oid}:${entry.path}`, scan);
        }
        const needsDate = scan.definitions.some((definition) => !definition.implementedAt);
        const lastChanged = needsDate ? await snapshot.git.lastChanged(snapshot.commit, entry.path) : null;
        return { path: entry.path, oid: entry.oid, text, ...scan, lastChanged };
      }),
    );
    const definitions = [...files.flatMap((file) => file.definitions), ...(await this.reusableSteps(snapshot)), ...BUILT_IN];
    const index = { files, definitions, matcher: new StepMatcher(definitions) };
    this.indexes.set(snapshot.commit, index);
    return index;
  }

  /**
   * The workspace's reusable steps (`.steps` files under features/, made of steps, no code): they
   * implement a step as a definition does. A file the runner would refuse implements nothing here
   * either; the run says why, with its line.
   */
  private async reusableSteps(snapshot: Snapshot): Promise<StepDefinition[]> {
    const entries = (await snapshot.list(FEATURES_DIR)).filter((entry) => entry.path.endsWith('.steps'));
    const blobs = await snapshot.git.readBlobs(entries.map((entry) => entry.oid));
    return entries.flatMap((entry) => {
      let steps: ReusableStep[];
      try {
        steps = parseReusableSteps(blobs.get(entry.oid)?.toString('utf8') ?? '', entry.path);
      } catch {
        return [];
      }
      return steps.map((step) => ({
        uri: entry.path,
        keyword: 'Step',
        pattern: step.pattern,
        isRegex: false,
        line: step.line,
        start: 0,
        end: 0,
        source: 'user' as const,
        implementedAt: null,
      }));
    });
  }

  private info(
    index: StepIndex,
    featureName: string,
    scenarioName: string,
    step: ParsedScenario['steps'][number],
    withCode: boolean,
  ): StepInfo {
    const at = index.matcher.match(step.text);
    const definition = at >= 0 ? index.definitions[at] : undefined;
    const file = definition?.uri ? index.files.find((candidate) => candidate.path === definition.uri) : undefined;
    return {
      stepName: step.text,
      keyword: step.keyword,
      implemented: definition !== undefined,
      implemented_at: definition ? (definition.implementedAt ?? file?.lastChanged ?? null) : null,
      mjsFile: file?.path ?? null,
      ...(withCode ? { mjsFileContent: file?.text ?? null } : {}),
      isNotValid: file?.error !== null && file?.error !== undefined,
      source: definition?.source ?? null,
      featureName,
      scenarioName,
      line: step.line,
    };
  }

  /** The store-and-get-steps answer as JSON text, computed once per commit. */
  async allStepsJson(ws: Workspace): Promise<string> {
    const snapshot = await this.workspaces.read(ws);
    const cached = this.answers.get(snapshot.commit);
    if (cached) return cached;
    const json = JSON.stringify({ status: true, ...(await this.allStepsAt(snapshot)) });
    this.answers.set(snapshot.commit, json);
    return json;
  }

  /** Every scenario step of the branch with its implementation, and the pattern → implementation map. */
  async allSteps(ws: Workspace) {
    return this.allStepsAt(await this.workspaces.read(ws));
  }

  private async allStepsAt(snapshot: Snapshot) {
    const [{ features }, index] = await Promise.all([this.features.listing(snapshot), this.index(snapshot)]);
    const steps: StepInfo[] = [];
    for (const feature of features) {
      for (const scenario of feature.parsed?.scenarios ?? []) {
        for (const step of scenario.steps) steps.push(this.info(index, feature.summary.name, scenario.name, step, false));
      }
    }
    const implementedSteps: Record<string, { implemented: boolean; source: string | null }> = {};
    for (const definition of index.definitions) implementedSteps[definition.pattern] ??= { implemented: true, source: definition.source };
    return { steps, implementedSteps };
  }

  async stepsOfScenario(ws: Workspace, featureName: string, scenarioName: string): Promise<StepInfo[]> {
    const snapshot = await this.workspaces.read(ws);
    const [{ features }, index] = await Promise.all([this.features.listing(snapshot), this.index(snapshot)]);
    const path = featurePath(featureName);
    const feature = features.find((candidate) => candidate.path === path);
    const scenario = feature?.parsed?.scenarios.find((candidate) => candidate.name === scenarioName);
    if (!feature || !scenario) throw notFound(Messages.scenarioNotFound);
    return scenario.steps.map((step) => this.info(index, feature.summary.name, scenario.name, step, true));
  }

  /**
   * The editor's step help for a text being edited (a scenario, or a whole feature): its steps no
   * definition implements with what they may have meant, and the project's own step patterns.
   */
  async check(
    ws: Workspace,
    text: string,
  ): Promise<{
    undefinedSteps: { line: number; column: number; text: string; suggestions: string[] }[];
    projectSteps: { pattern: string; file: string }[];
  }> {
    const index = await this.index(await this.workspaces.read(ws));
    const patterns = index.definitions.filter((definition) => !definition.isRegex).map((definition) => definition.pattern);
    const undefinedSteps = stepsOfText(text)
      .filter((step) => index.matcher.match(step.text) === -1)
      .map((step) => {
        const problem = stepTextProblem(step.text);
        return {
          line: step.line,
          column: step.textColumn,
          text: step.text,
          ...(problem ? { problem } : {}),
          suggestions: suggestSteps(step.text, patterns),
        };
      });
    // Regular-expression definitions cannot be written out as a step to complete: only cucumber expressions are offered.
    const projectSteps = index.files.flatMap((file) =>
      file.definitions.filter((definition) => !definition.isRegex).map((definition) => ({ pattern: definition.pattern, file: file.path })),
    );
    return { undefinedSteps, projectSteps };
  }

  /** Writes step definition modules; code that does not parse is stored (Save Anyway) and flagged isNotValid. */
  async uploadMjs(ws: Workspace, files: { name: string; content: string }[]): Promise<string[]> {
    const paths = files.map((file) => {
      if (file.name.includes('/') || !CODE_FILE.test(file.name)) throw badRequest(Messages.stepFileNameInvalid);
      return workspacePath(STEP_DEFINITIONS_DIR, file.name);
    });
    await this.workspaces.write(ws, async () => ({
      changes: files.map((file, i) => ({ path: paths[i]!, content: file.content })),
      message: `[app:steps.upload] ${files.map((file) => file.name).join(', ')}`,
      result: {},
    }));
    return paths;
  }

  private async unusedDefinitions(snapshot: Snapshot): Promise<StepDefinition[]> {
    const [{ features }, index] = await Promise.all([this.features.listing(snapshot), this.index(snapshot)]);
    const used = new Set<StepDefinition>();
    for (const feature of features) {
      const parsed = feature.parsed;
      if (!parsed) continue;
      for (const scenario of parsed.scenarios) {
        const rule = scenario.ruleIndex === null ? null : parsed.rules[scenario.ruleIndex];
        const background = [...(parsed.background?.steps ?? []), ...(rule?.background?.steps ?? [])];
        for (const { text } of stepTexts(scenario, background)) {
          const at = index.matcher.match(text);
          if (at >= 0) used.add(index.definitions[at]!);
        }
      }
    }
    return index.definitions.filter((definition) => definition.uri !== '' && !used.has(definition));
  }

  async unused(ws: Workspace): Promise<StepDefinitionRef[]> {
    const unused = await this.unusedDefinitions(await this.workspaces.read(ws));
    return unused.map(({ uri, keyword, pattern, line }) => ({ uri, keyword, pattern, line }));
  }

  /** Removes the given unused definitions (all unused ones when none are given); used ones are never removed. */
  async removeUnused(ws: Workspace, refs: StepDefinitionRef[]): Promise<number> {
    const { removed } = await this.workspaces.write(ws, async (snapshot) => {
      const unused = await this.unusedDefinitions(snapshot);
      const chosen =
        refs.length === 0
          ? unused
          : unused.filter((d) => refs.some((r) => r.uri === d.uri && r.line === d.line && r.pattern === d.pattern));
      const byFile = new Map<string, StepDefinition[]>();
      for (const definition of chosen) byFile.set(definition.uri, [...(byFile.get(definition.uri) ?? []), definition]);
      const index = await this.index(snapshot);
      const changes = [...byFile].map(([uri, definitions]) => {
        const file = index.files.find((candidate) => candidate.path === uri);
        return { path: uri, content: removeDefinitions(file?.text ?? '', definitions) };
      });
      return { changes, message: `[app:steps.remove-unused] ${chosen.length} step definition(s)`, result: { removed: chosen.length } };
    });
    return removed;
  }
}
