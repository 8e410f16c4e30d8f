import {
  BUILT_IN_STEP_PATTERNS,
  builtInStepRegExp,
  Messages,
  QUICK_PROMPTS,
  type ApplicationMemory,
  type ScenarioIdea,
} from '@rehearse/contract';
import { z } from 'zod';
import { AppError, badRequest, conflict } from '../http/errors.js';
import {
  expressionForStep,
  findStepFunction,
  parseStepModule,
  scanStepDefinitions,
  StepFunctionError,
  StepMatcher,
} from '@rehearse/codegen';
import type { FeaturesService } from '../workspace/features.service.js';
import { STEP_DEFINITIONS_DIR } from '../workspace/steps/steps.service.js';
import type { Workspace, WorkspaceService } from '../workspace/workspace.service.js';
import { LlmError, type Llm, type LlmMessage } from './llm.js';
import {
  splitClauses,
  openedAddress,
  stepValue,
  translateClause,
  translateFlow,
  withKeywords,
  type TranslatedStep,
  type Translation,
} from './plain-english.js';
import { ideasFromMemory } from './ideas.js';
import { resolveOnMap, type AppOnMap, type MapResolution } from './map-resolution.js';
import { candidatesFor, mapElements } from './questions.js';
import { applyQuickPrompt, quickPromptOf, type QuickPrompt } from './quick-prompts.js';

/** How many of the map's elements a prompt names (a big app's map would crowd out the flow). */
const MAP_ELEMENTS_IN_PROMPT = 80;

/** A question about one clause of a flow: the steps it may have meant, and why it is asked when it reads. */
type FlowQuestion = { clause: string; candidates: string[]; why?: string };

const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url).host.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
};

/** Where single-step generation writes the code of steps it implements. */
export const GENERATED_STEPS_FILE = `${STEP_DEFINITIONS_DIR}/generated_steps.mjs`;

/** A failure the caller cannot fix by changing the input: the provider failed and no built-in answer exists. */
const providerFailed = (message: string) => new AppError(502, message);
/** A request only an LLM could serve, with none configured. */
const needsProvider = (message: string) => new AppError(422, message);

/**
 * Keywords that name a quick prompt in free words ("please retry this step"), used only when the
 * provider is absent or failed: the built-in engine then still does what was most likely meant.
 */
const QUICK_PROMPT_HINTS: Array<[RegExp, QuickPrompt]> = [
  [/\b(?:timeout|time out|wait)\b.*\b(?:2|two)\s*min/i, 'Set click timeout to 2 minutes'],
  [
    /\b(?:only if|if (?:the )?element (?:is )?(?:found|present|exists|visible)|when (?:it|the element) exists)\b/i,
    'Perform action only if element found',
  ],
  [/\b(?:continue|carry on|ignore|don'?t fail|do not fail)\b/i, 'Continue if step fails'],
  [/\bretr(?:y|ies)\b/i, 'Retry step'],
];

const BUILT_IN_RE = BUILT_IN_STEP_PATTERNS.map(builtInStepRegExp);

const fence = (text: string) => /```(?:[a-z]*)\n([\s\S]*?)```/i.exec(text)?.[1] ?? text;

/**
 * The AI engine's answers (DESIGN §8): the built-in engine for everything, the provider (when
 * configured) for what the built-in grammar cannot read, with the built-in answer as fallback.
 */
export class AiService {
  constructor(
    private readonly llm: Llm | undefined,
    private readonly workspaces: WorkspaceService,
    private readonly features: FeaturesService,
    private readonly log: { warn: (obj: object, message: string) => void },
  ) {}

  private providerFailed(error: unknown, what: string): void {
    this.log.warn(
      { err: error instanceof LlmError ? { kind: error.kind, message: error.message } : error },
      `AI provider failed (${what}); using the built-in engine`,
    );
  }

  // ---- Step code updates (process-user-request/generate) ----

  /** Applies a request to one step function; answers the whole new file for review, never writes it. */
  async generateStepCode(input: { user_request: string; function_name: string; mjs_file_content: string }): Promise<string> {
    const builtIn = (prompt: QuickPrompt) => {
      try {
        return applyQuickPrompt(input.mjs_file_content, input.function_name, prompt);
      } catch (error) {
        if (error instanceof StepFunctionError) throw badRequest(Messages.aiStepUpdateFailed);
        throw error;
      }
    };
    const exact = quickPromptOf(input.user_request);
    if (exact) return builtIn(exact);
    // The function must exist whoever edits it.
    try {
      findStepFunction(input.mjs_file_content, input.function_name);
    } catch {
      throw badRequest(Messages.aiStepUpdateFailed);
    }
    const hinted = QUICK_PROMPT_HINTS.find(([re]) => re.test(input.user_request))?.[1];
    if (!this.llm) {
      if (hinted) return builtIn(hinted);
      throw needsProvider(Messages.aiRequestNotUnderstood);
    }
    try {
      const answer = await this.llm.complete([
        {
          role: 'system',
          content: `You edit Rehearse step definition files (JavaScript ES modules for cucumber-js using \`context.web\` commands: navigate, click, fill, select, check, press, hover, verifyText, verifyVisible, verifyValue, verifyUrl, wait, isFound). Change only the function named in the request, keep everything else byte for byte. Answer with the complete updated file in one \`\`\`js block and nothing else. The built-in quick edits are: ${QUICK_PROMPTS.join('; ')}.`,
        },
        {
          role: 'user',
          content: `Function: ${input.function_name}\nRequest: ${input.user_request}\n\nFile:\n\`\`\`js\n${input.mjs_file_content}\n\`\`\``,
        },
      ]);
      const code = fence(answer);
      // The answer must be a module that parses and still has the function; anything else is malformed.
      findStepFunction(code, input.function_name);
      return code;
    } catch (error) {
      this.providerFailed(error, 'step code update');
      if (hinted) return builtIn(hinted);
      throw providerFailed(Messages.aiStepUpdateFailed);
    }
  }

  // ---- Plain-English scenarios (scenarios/scenario-creation) ----

  /** Translates the flow (built-in grammar, then the provider for what is left) into built-in steps. */
  async translate(
    flow: readonly string[],
    app: AppOnMap = { memory: { paths: {} }, baseUrls: [] },
  ): Promise<Translation & { resolved: MapResolution[][] }> {
    // The nouns are then read against the app's map (issue 44 item 2), whoever read the words.
    return resolveOnMap(await this.translateWords(flow, app.memory), app);
  }

  /** The flow read by the grammar, then by the provider (with the map's element names) for what the grammar left. */
  private async translateWords(flow: readonly string[], memory: Pick<ApplicationMemory, 'paths'>): Promise<Translation> {
    const builtIn = translateFlow(flow);
    if (!this.llm || builtIn.unmatched.length === 0) return builtIn;
    // The app's own names (issue 44 item 5): the model picks an element the map has seen rather than guessing one.
    const seen = mapElements(memory)
      .slice(0, MAP_ELEMENTS_IN_PROMPT)
      .map((element) => `${element.role} ${JSON.stringify(element.name)}`);
    try {
      const answer = await this.llm.completeJson(
        [
          {
            role: 'system',
            content: `Translate each plain-English test action into Gherkin steps WITHOUT keywords, using only these step patterns ({string} is a double-quoted value; keep {{name}} references as they are): ${BUILT_IN_STEP_PATTERNS.join(' | ')}. Answer JSON: {"translations": [{"line": "<the input line>", "steps": ["I click \\"Sign in\\""]}]}; use an empty steps array for a line you cannot translate.${seen.length > 0 ? ` Elements of the application (name an element by its exact name): ${seen.join('; ')}.` : ''}`,
          },
          { role: 'user', content: JSON.stringify(builtIn.unmatched) },
        ] satisfies LlmMessage[],
        z.object({ translations: z.array(z.object({ line: z.string(), steps: z.array(z.string()) })) }),
      );
      const extra = new Map<string, TranslatedStep[]>();
      for (const line of builtIn.unmatched) {
        const found = answer.translations.find((t) => t.line === line);
        // Only steps the runner can run are accepted: a provider's invention is not a step.
        const steps = (found?.steps ?? [])
          .map((step) => translateClause(step))
          .filter(
            (step): step is TranslatedStep[] => step !== undefined && step.length === 1 && BUILT_IN_RE.some((re) => re.test(step[0]!.text)),
          );
        if (found && steps.length === found.steps.length && steps.length > 0) extra.set(line, steps.flat());
      }
      // Keep the flow's order: rebuild clause by clause; a clause the provider did not read stays unmatched.
      return translateFlow(flow, (clause) => extra.get(clause));
    } catch (error) {
      this.providerFailed(error, 'scenario creation');
      return builtIn;
    }
  }

  /**
   * The flow line by line as scenario creation would write it, and a question (with candidates
   * from the catalogue and the application map) for each clause nothing reads. Saves nothing.
   */
  async readFlow(
    flow: readonly string[],
    memory: Pick<ApplicationMemory, 'paths'>,
    baseUrls: readonly string[] = [],
  ): Promise<Array<{ line: string; steps: string[]; questions: FlowQuestion[]; resolved: MapResolution[] }>> {
    const translation = await this.translate(flow, { memory, baseUrls });
    const elements = mapElements(memory);
    const hosts = new Set(baseUrls.flatMap((url) => hostOf(url) ?? []));
    // Keywords come from the whole flow (a line's first step may continue the one before).
    const written = withKeywords(translation.steps);
    let next = 0;
    return translation.lines.map((read, index) => {
      const steps = written.slice(next, next + read.steps.length);
      next += read.steps.length;
      const questions: FlowQuestion[] = read.unmatched.map((clause) => ({ clause, candidates: candidatesFor(clause, elements) }));
      // A line that sends the scenario to a site no environment names is asked about: a typo'd or
      // pasted address would otherwise test (and type test data into) someone else's site.
      for (const step of read.steps) {
        const url = openedAddress(step.text);
        const host = url && /^https?:\/\//i.test(url) ? hostOf(url) : undefined;
        if (!host || hosts.size === 0 || hosts.has(host)) continue;
        const below = new URL(url!);
        questions.push({
          clause: read.line,
          candidates: [`I open ${stepValue(`${below.pathname}${below.search}`)}`],
          why: Messages.plainEnglishOtherHost(host),
        });
      }
      return { line: read.line, steps, questions, resolved: translation.resolved[index]! };
    });
  }

  /** Writes the scenario (a Scenario Outline when it has parameters) to the feature; creates the feature when new. */
  async createScenario(
    ws: Workspace,
    input: { featureName: string; name: string; flow: string[]; parameters: Record<string, string>; url?: string | undefined },
    app?: AppOnMap,
  ): Promise<{ featureName: string; scenarioName: string; steps: string[] }> {
    const { steps, unmatched } = await this.translate(input.flow, app);
    // A scenario missing a line the user wrote would test something else than they meant: refuse it whole.
    if (unmatched.length > 0) throw badRequest(Messages.plainEnglishNotUnderstood(unmatched));
    if (steps.length === 0) throw badRequest(Messages.scenarioCreationFailed);
    const { text, lines } = plainEnglishScenario(input.name, steps, input.parameters, input.url);
    const { feature } = await this.features.pushScenario(ws, { name: input.featureName, data: text });
    return { featureName: feature.featureName, scenarioName: input.name, steps: lines };
  }

  // ---- Single-step generate (steps/generate) ----

  /** Code for one unimplemented step, appended to the generated steps file as one commit. */
  async generateStep(ws: Workspace, stepText: string): Promise<{ file: string; code: string }> {
    const text = stepText.replace(/^(?:given|when|then|and|but|\*)\s+/i, '').trim();
    // A second definition of an implemented step would make cucumber call the step ambiguous.
    const snapshot = await this.workspaces.read(ws);
    const existing = await snapshot.readText(GENERATED_STEPS_FILE);
    const defined = existing ? scanStepDefinitions(GENERATED_STEPS_FILE, existing).definitions : [];
    if (BUILT_IN_RE.some((re) => re.test(text)) || new StepMatcher(defined).match(text) !== -1)
      throw conflict(Messages.stepAlreadyImplemented);
    let body = builtInStepCode(text);
    if (!body && this.llm) {
      try {
        const answer = await this.llm.complete([
          {
            role: 'system',
            content:
              "Write the body of an async cucumber-js step function for Rehearse. Use only `await context.web.<command>(...)` calls with `this` as the last argument (navigate(url, params, options, world), click(name, params, options, world), fill(name, value, params, options, world), select(name, value, ...), check(name, ...), press(name|null, key, ...), verifyText(text, ...), verifyUrl(text, ...), wait(msOrText, ...)). The step's quoted values are the parameters p1, p2, … in order. Answer with the body only in one ```js block.",
          },
          { role: 'user', content: text },
        ]);
        const candidate = fence(answer).trim();
        parseStepModule(`async function step() {\n${candidate}\n}`);
        body = candidate
          .split('\n')
          .map((line) => `  ${line}`)
          .join('\n');
      } catch (error) {
        this.providerFailed(error, 'step generation');
      }
    }
    if (!body) throw needsProvider(Messages.aiStepNotUnderstood);
    const pattern = expressionForStep(text).replace(/\\/g, '\\\\').replace(/'/g, "\\'");
    const params = [...text.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((_, i) => `p${i + 1}`);
    const code = `/**\n * ${text.replace(/\*\//g, '* /')}\n * @implemented_at=${new Date().toISOString()}\n */\nWhen('${pattern}', async function (${params.join(', ')}) {\n${body}\n});\n`;
    // Dry run before saving: the new definition must parse and match the very step it was made for.
    const made = scanStepDefinitions(GENERATED_STEPS_FILE, code);
    if (made.error !== null || made.definitions.length !== 1 || new StepMatcher(made.definitions).match(text) === -1)
      throw badRequest(Messages.aiStepUpdateFailed);
    const { content } = await this.workspaces.write(ws, async (snapshot) => {
      const existing = await snapshot.readText(GENERATED_STEPS_FILE);
      const head = "import { When } from '@cucumber/cucumber';\nimport { context } from '@rehearse/runner';\n";
      const next = existing === null ? `${head}\n${code}` : `${existing.replace(/\n*$/, '\n')}\n${code}`;
      return {
        changes: [{ path: GENERATED_STEPS_FILE, content: next }],
        message: `[app:steps.generate] step: ${text.slice(0, 120)}`,
        result: { content: next },
      };
    });
    parseStepModule(content);
    return { file: GENERATED_STEPS_FILE, code };
  }

  // ---- Scenario ideas (scenarios/ideas) ----

  async ideas(
    memory: ApplicationMemory,
    description: string,
    baseUrls: readonly string[] = [],
  ): Promise<{ result: ScenarioIdea[]; error?: string }> {
    const builtIn = ideasFromMemory(memory, description, baseUrls);
    if (this.llm && (description.trim() || builtIn.length > 0)) {
      try {
        const pages = Object.entries(memory.paths)
          .slice(0, 10)
          .map(([route, entry]) => `${route}:\n${entry.snapshot.slice(0, 1500)}`)
          .join('\n\n');
        const answer = await this.llm.completeJson(
          [
            {
              role: 'system',
              content: `Suggest end-to-end test scenarios for a web application. Each has a short name, a flow of plain-English actions (one per line, e.g. \`fill "Email" with "{{user}}"\`, \`click "Sign in"\`, \`should see "Welcome"\`) and parameters (name → example value, referenced as {{name}}). Answer JSON: {"ideas": [{"name": "", "flow": [""], "parameters": {}}]}.`,
            },
            { role: 'user', content: `Description: ${description || '(none)'}\n\nPages seen (ARIA snapshots):\n${pages || '(none)'}` },
          ],
          z.object({
            ideas: z
              .array(
                z.object({
                  name: z.string().min(1),
                  flow: z.array(z.string()).min(1),
                  parameters: z.record(z.string(), z.string()).default({}),
                }),
              )
              .min(1),
          }),
        );
        return { result: answer.ideas.slice(0, 20) };
      } catch (error) {
        this.providerFailed(error, 'scenario ideas');
      }
    }
    if (builtIn.length === 0) return { result: [], error: Messages.scenarioCreationFailed };
    return { result: builtIn };
  }
}

/**
 * The Gherkin of a translated plain-English scenario, as scenario creation writes it: an `I open`
 * first when a URL is given, and a Scenario Outline whose one Examples row holds the parameters.
 */
export function plainEnglishScenario(
  scenarioName: string,
  steps: readonly TranslatedStep[],
  parameters: Record<string, string>,
  url?: string,
): { text: string; lines: string[] } {
  const all =
    url && steps[0]?.kind !== 'context' ? [{ kind: 'context' as const, text: `I open "${url.replace(/"/g, '\\"')}"` }, ...steps] : steps;
  const names = Object.keys(parameters).filter((name) => /^[\w.-]+$/.test(name));
  // Parameters become an Examples row, so the scenario runs with its example values as written.
  const lines = withKeywords(all).map((line) => names.reduce((text, name) => text.replaceAll(`{{${name}}}`, `<${name}>`), line));
  const outline = names.length > 0;
  const cell = (value: string) => value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, '\\n');
  const text = [
    `${outline ? 'Scenario Outline' : 'Scenario'}: ${scenarioName}`,
    ...lines.map((line) => `  ${line}`),
    ...(outline
      ? ['', '  Examples:', `    | ${names.map(cell).join(' | ')} |`, `    | ${names.map((name) => cell(parameters[name]!)).join(' | ')} |`]
      : []),
  ].join('\n');
  return { text, lines };
}

/** The `context.web` calls of a step the plain-English grammar reads; undefined when it cannot. */
export function builtInStepCode(text: string): string | undefined {
  const steps = translateClause(text) ?? (splitClauses(text).length > 1 ? translateFlow([text]) : undefined);
  const list = Array.isArray(steps) ? steps : steps && steps.unmatched.length === 0 ? steps.steps : undefined;
  if (!list || list.length === 0) return undefined;
  const values = [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
  const arg = (value: string) => {
    const index = values.indexOf(value);
    return index === -1 ? JSON.stringify(value) : `p${index + 1}`;
  };
  const lines: string[] = [];
  for (const step of list) {
    const q = [...step.text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\"/g, '"'));
    const [a = '', b = ''] = q;
    const call = step.text.startsWith('I open ')
      ? `navigate(${arg(a)}, {}, {}, this)`
      : step.text.startsWith('I click ')
        ? `click(${arg(a)}, {}, {}, this)`
        : step.text.startsWith('I fill ')
          ? `fill(${arg(a)}, ${arg(b)}, {}, {}, this)`
          : step.text.startsWith('I select ')
            ? `select(${arg(b)}, ${arg(a)}, {}, {}, this)`
            : step.text.startsWith('I check ')
              ? `check(${arg(a)}, {}, {}, this)`
              : step.text.startsWith('I press ')
                ? `press(null, ${arg(a)}, {}, {}, this)`
                : step.text.startsWith('I should not see ')
                  ? `verifyNoText(${arg(a)}, {}, {}, this)`
                  : step.text.startsWith('I should see ')
                    ? `verifyText(${arg(a)}, {}, {}, this)`
                    : step.text.startsWith('the URL should contain ')
                      ? `verifyUrl(${arg(a)}, {}, {}, this)`
                      : step.text.startsWith('I wait for ')
                        ? `wait(${arg(a)}, {}, {}, this)`
                        : undefined;
    if (!call) return undefined;
    lines.push(`  await context.web.${call};`);
  }
  return lines.join('\n');
}
