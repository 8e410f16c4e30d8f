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
import { splitClauses, translateClause, translateFlow, withKeywords, type TranslatedStep } from './plain-english.js';
import { applyQuickPrompt, quickPromptOf, type QuickPrompt } from './quick-prompts.js';

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
  async translate(flow: readonly string[]): Promise<{ steps: TranslatedStep[]; unmatched: string[] }> {
    const builtIn = translateFlow(flow);
    if (!this.llm || builtIn.unmatched.length === 0) return builtIn;
    try {
      const answer = await this.llm.completeJson(
        [
          {
            role: 'system',
            content: `Translate each plain-English test action into Gherkin steps WITHOUT keywords, using only these step patterns ({string} is a double-quoted value; keep {{name}} references as they are): ${BUILT_IN_STEP_PATTERNS.join(' | ')}. Answer JSON: {"translations": [{"line": "<the input line>", "steps": ["I click \\"Sign in\\""]}]}; use an empty steps array for a line you cannot translate.`,
          },
          { role: 'user', content: JSON.stringify(builtIn.unmatched) },
        ] satisfies LlmMessage[],
        z.object({ translations: z.array(z.object({ line: z.string(), steps: z.array(z.string()) })) }),
      );
      const unmatched: string[] = [];
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
        else unmatched.push(line);
      }
      // Keep the flow's order: rebuild clause by clause.
      return { steps: translateFlow(flow, (clause) => extra.get(clause)).steps, unmatched };
    } catch (error) {
      this.providerFailed(error, 'scenario creation');
      return builtIn;
    }
  }

  /** Writes the scenario (a Scenario Outline when it has parameters) to the feature; creates the feature when new. */
  async createScenario(
    ws: Workspace,
    input: { featureName: string; name: string; flow: string[]; parameters: Record<string, string>; url?: string | undefined },
  ): Promise<{ featureName: string; scenarioName: string; steps: string[] }> {
    const { steps, unmatched } = await this.translate(input.flow);
    // A scenario missing a line the user wrote would test something else than they meant: refuse it whole.
    if (unmatched.length > 0) throw badRequest(Messages.plainEnglishNotUnderstood(unmatched));
    if (steps.length === 0) throw badRequest(Messages.scenarioCreationFailed);
    const all =
      input.url && steps[0]?.kind !== 'context'
        ? [{ kind: 'context' as const, text: `I open "${input.url.replace(/"/g, '\\"')}"` }, ...steps]
        : steps;
    const names = Object.keys(input.parameters).filter((name) => /^[\w.-]+$/.test(name));
    // Parameters become an Examples row, so the scenario runs with its example values as written.
    const lines = withKeywords(all).map((line) => names.reduce((text, name) => text.replaceAll(`{{${name}}}`, `<${name}>`), line));
    const outline = names.length > 0;
    const cell = (value: string) => value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, '\\n');
    const text = [
      `${outline ? 'Scenario Outline' : 'Scenario'}: ${input.name}`,
      ...lines.map((line) => `  ${line}`),
      ...(outline
        ? [
            '',
            '  Examples:',
            `    | ${names.map(cell).join(' | ')} |`,
            `    | ${names.map((name) => cell(input.parameters[name]!)).join(' | ')} |`,
          ]
        : []),
    ].join('\n');
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

  async ideas(memory: ApplicationMemory, description: string): Promise<{ result: ScenarioIdea[]; error?: string }> {
    const builtIn = ideasFromMemory(memory, description);
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

const KEYWORD_IDEAS: Array<[RegExp, ScenarioIdea]> = [
  [
    /\b(?:log ?in|sign ?in|login|authenticat)/i,
    {
      name: 'Sign in',
      flow: [
        'open "login.html"',
        'fill "Email" with "{{user}}"',
        'fill "Password" with "{{password}}"',
        'click "Sign in"',
        'should see "{{name}}"',
      ],
      parameters: { user: 'user@example.com', password: 'secret', name: 'Signed in' },
    },
  ],
  [
    /\b(?:search|find|look for)/i,
    {
      name: 'Search for a product',
      flow: ['open "/"', 'search for "{{term}}"', 'should see "{{result}}"'],
      parameters: { term: 'lamp', result: 'lamp' },
    },
  ],
  [
    /\b(?:buy|purchase|cart|basket|check ?out|order)/i,
    {
      name: 'Buy a product',
      flow: ['open "/"', 'search for "{{product}}"', 'add it to the cart', 'click "Cart"', 'click "Proceed to checkout"'],
      parameters: { product: 'lamp' },
    },
  ],
  [
    /\b(?:sign ?up|register|create an account)/i,
    {
      name: 'Create an account',
      flow: [
        'open "/"',
        'click "Sign up"',
        'fill "Email" with "{{user}}"',
        'fill "Password" with "{{password}}"',
        'click "Create account"',
      ],
      parameters: { user: 'new@example.com', password: 'secret' },
    },
  ],
];

const ROLE_LINE = /^\s*- (textbox|searchbox|button|link|combobox|checkbox|spinbutton) "([^"]+)"/;

/**
 * Ideas from what runs have seen (spec 02 §7 getApplicationMemory): a sign-in form, a search box,
 * other forms to fill and submit, navigation links; plus the description's own words when the
 * grammar reads them.
 */
export function ideasFromMemory(memory: Pick<ApplicationMemory, 'paths'>, description: string): ScenarioIdea[] {
  const ideas: ScenarioIdea[] = [];
  const described = description.trim() ? translateFlow([description]) : undefined;
  if (described && described.steps.length > 0 && described.unmatched.length === 0) {
    ideas.push({ name: description.trim().slice(0, 80), flow: splitClauses(description), parameters: {} });
  }
  // The description's keywords name the flows people mean most often.
  for (const [re, idea] of KEYWORD_IDEAS) if (re.test(description)) ideas.push(idea);
  for (const [route, entry] of Object.entries(memory.paths)) {
    const elements = entry.snapshot
      .split('\n')
      .map((line) => ROLE_LINE.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ role: m[1]!, name: m[2]! }));
    const open = `open "${route}"`;
    const fields = elements.filter((e) => e.role === 'textbox' || e.role === 'spinbutton' || e.role === 'combobox');
    const buttons = elements.filter((e) => e.role === 'button');
    const email = fields.find((f) => /e-?mail|user/i.test(f.name));
    const password = fields.find((f) => /password/i.test(f.name));
    const submit = buttons.find((b) => /sign|log|submit|continue|place|save|send|search|find/i.test(b.name)) ?? buttons[0];
    if (email && password && submit) {
      ideas.push({
        name: `Sign in on ${route}`,
        flow: [open, `fill "${email.name}" with "{{user}}"`, `fill "${password.name}" with "{{password}}"`, `click "${submit.name}"`],
        parameters: { user: 'user@example.com', password: 'secret' },
      });
    }
    const search = elements.find((e) => e.role === 'searchbox') ?? fields.find((f) => /search|find/i.test(f.name));
    if (search) {
      ideas.push({
        name: `Search on ${route}`,
        flow: [open, `fill "${search.name}" with "{{term}}"`, 'press "Enter"', 'should see "{{term}}"'],
        parameters: { term: 'example' },
      });
    }
    const others = fields.filter((f) => f !== email && f !== password && f !== search);
    if (others.length >= 2 && submit) {
      const parameters = Object.fromEntries(
        others.map((f) => [
          f.name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '_')
            .replace(/^_|_$/g, ''),
          '',
        ]),
      );
      const keys = Object.keys(parameters);
      ideas.push({
        name: `Fill the form on ${route}`,
        flow: [open, ...others.map((f, i) => `fill "${f.name}" with "{{${keys[i]}}}"`), `click "${submit.name}"`],
        parameters,
      });
    }
    for (const link of elements.filter((e) => e.role === 'link').slice(0, 3)) {
      ideas.push({ name: `Go to ${link.name} from ${route}`, flow: [open, `click "${link.name}"`], parameters: {} });
    }
  }
  // One idea per name: the first (description, then the most useful kinds) wins.
  const seen = new Set<string>();
  return ideas.filter((idea) => (seen.has(idea.name) ? false : (seen.add(idea.name), true))).slice(0, 20);
}
