import { aiCalls, authCalls, SCENARIO_CREATION_DEFAULT_FEATURE, workspaceCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../testing/fake-llm.js';
import { failure, signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { RecordedPagesRepo } from '../recorder/recorded-pages.repo.js';
import { GENERATED_STEPS_FILE } from './ai.service.js';
import { applyQuickPrompt } from './quick-prompts.js';
import { SAMPLES } from './quick-prompts.samples.js';

const sample = SAMPLES[0]!;
const stepBody = (user_request: string) => ({ user_request, function_name: sample.functionName, mjs_file_content: sample.code });

describe('AI engine, built-in only (no AI_BASE_URL)', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp('pglite');
  });
  afterAll(async () => test?.close());

  it('applies a quick prompt to the step function and answers the whole file for review', async () => {
    const { api, projectId } = await signUp(test);
    const versions = () => api.call(workspaceCalls.getStableVersions, { query: { projectId } });
    const before = await versions();
    const answer = await api.call(aiCalls.generateStepCode, { body: { projectId, ...stepBody('Retry step') } });
    expect(answer.result).toBe(applyQuickPrompt(sample.code, sample.functionName, 'Retry step'));
    // Review only: nothing was committed to the workspace.
    expect(await versions()).toEqual(before);
  });

  it("refuses a function the file does not have with the spec's message", async () => {
    const { api, projectId } = await signUp(test);
    const error = await failure(
      api.call(aiCalls.generateStepCode, { body: { projectId, ...stepBody('Retry step'), function_name: 'nope' } }),
    );
    expect([error.httpStatus, error.message]).toEqual([400, 'Error updating the step code. Please try again.']);
  });

  it('reads a free-form request that names a quick prompt, and says a provider is needed for the rest', async () => {
    const { api, projectId } = await signUp(test);
    const hinted = await api.call(aiCalls.generateStepCode, { body: { projectId, ...stepBody('please retry this when it fails') } });
    expect(hinted.result).toBe(applyQuickPrompt(sample.code, sample.functionName, 'Retry step'));
    const error = await failure(api.call(aiCalls.generateStepCode, { body: { projectId, ...stepBody('make it log the page title') } }));
    expect([error.httpStatus, error.message]).toEqual([
      422,
      'This request needs an AI provider. Use one of the quick prompts, or ask your administrator to configure AI_BASE_URL.',
    ]);
  });

  it('creates a plain-English scenario as a Scenario Outline of built-in steps', async () => {
    const { api, projectId } = await signUp(test);
    const answer = await api.call(aiCalls.scenarioCreation, {
      body: {
        projectId,
        featureName: 'Shop',
        name: 'Buy a lamp',
        flow: ["open the shop, search for 'lamp', add the first result to the cart"],
        parameters: {},
      },
    });
    expect(answer.steps).toEqual([
      'Given I open "/"',
      'When I fill "Search" with "lamp"',
      'And I press "Enter"',
      'And I click "Add to cart"',
    ]);
    const withParameters = await api.call(aiCalls.scenarioCreation, {
      body: {
        projectId,
        featureName: 'Shop',
        name: 'Sign in',
        flow: ['go to login.html', 'log in as {{user}}'],
        parameters: { user: 'demo@rehearse.dev' },
      },
    });
    expect(withParameters.steps[1]).toBe('When I fill "Email" with "<user>"');
    const { content } = await api.call(workspaceCalls.getFileContent, { query: { projectId, file_path: 'features/Shop.feature' } });
    expect(content).toContain('  Scenario Outline: Sign in\n    Given I open "login.html"\n    When I fill "Email" with "<user>"');
    expect(content).toContain('    Examples:\n      | user |\n      | demo@rehearse.dev |');
    expect(content).toContain('  Scenario: Buy a lamp\n');
  });

  it("creates a scenario from the spec's fields alone: {project id, name, flow, parameters, url, access_key}, the key as bearer, X-Source Creation", async () => {
    const { api, projectId } = await signUp(test);
    const { accessKey } = await api.call(authCalls.createAccessKey, { body: { projectId, name: 'creation' } });
    // Spec 02 §7's body, with spec 02 §3's idea fields as the ideas step holds them (parameters a JSON key/value string).
    const body = {
      projectId,
      name: 'Sign in',
      flow: 'go to login.html, log in as {{user}}',
      parameters: JSON.stringify({ user: 'demo@rehearse.dev', password: 'rehearse123' }),
      url: 'http://shop.test/',
      access_key: accessKey.token,
    };
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/runs/scenarios/scenario-creation',
      headers: { authorization: `Bearer ${accessKey.token}`, 'x-source': 'Creation', 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json<{ status: boolean; featureName: string; scenarioName: string; steps: string[] }>();
    expect(answer).toMatchObject({ status: true, featureName: SCENARIO_CREATION_DEFAULT_FEATURE, scenarioName: 'Sign in' });
    expect(answer.steps).toEqual([
      'Given I open "login.html"',
      'When I fill "Email" with "<user>"',
      'And I fill "Password" with "<password>"',
      'And I click "Sign in"',
    ]);
    const { content } = await api.call(workspaceCalls.getFileContent, {
      query: { projectId, file_path: `features/${SCENARIO_CREATION_DEFAULT_FEATURE}.feature` },
    });
    expect(content).toContain('  Scenario Outline: Sign in\n    Given I open "login.html"\n');
    expect(content).toContain('      | user | password |\n      | demo@rehearse.dev | rehearse123 |');
    // The key in the body is never what authenticates: without the bearer the call is refused.
    const anonymous = await test.app.inject({
      method: 'POST',
      url: '/api/runs/scenarios/scenario-creation',
      headers: { 'x-source': 'Creation', 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(anonymous.statusCode).toBe(401);
    // Parameters that are not a JSON key/value string are refused in words.
    const refused = await failure(
      api.call(aiCalls.scenarioCreation, { body: { projectId, name: 'x', flow: 'open the shop', parameters: '{"user":' } }),
    );
    expect([refused.httpStatus, refused.message]).toEqual([
      400,
      'The parameters must be a JSON object of names and text values, e.g. {"user": "demo@rehearse.dev"}.',
    ]);
  });

  it('refuses a flow with a line no step reads, names that line, and writes nothing', async () => {
    const { api, projectId } = await signUp(test);
    const versions = () => api.call(workspaceCalls.getStableVersions, { query: { projectId } });
    const before = await versions();
    const one = await failure(
      api.call(aiCalls.scenarioCreation, {
        body: { projectId, featureName: 'Shop', name: 'x', flow: ['open the shop', 'dance a jig'], parameters: {} },
      }),
    );
    expect([one.httpStatus, one.message]).toEqual([
      400,
      'Nothing was created: this line does not read as a step: “dance a jig”. Rephrase it with the words of the Steps reference, or write a step in Gherkin.',
    ]);
    const two = await failure(
      api.call(aiCalls.scenarioCreation, {
        body: { projectId, featureName: 'Shop', name: 'x', flow: ['dance a jig, then sing'], parameters: {} },
      }),
    );
    expect(two.message).toBe(
      'Nothing was created: these lines do not read as a step: “dance a jig”, “sing”. Rephrase them with the words of the Steps reference, or write a step in Gherkin.',
    );
    expect(await versions()).toEqual(before);
  });

  it('reads a flow line by line and asks about each clause no step reads, with candidates; saves nothing', async () => {
    const { api, projectId } = await signUp(test);
    const versions = () => api.call(workspaceCalls.getStableVersions, { query: { projectId } });
    const before = await versions();
    const answer = await api.call(aiCalls.scenarioReading, {
      body: { projectId, flow: ['open the shop', 'I tapp "Sign in"', 'dance a jig', 'I should sea "Welcome"'] },
    });
    expect(answer.lines).toEqual([
      { line: 'open the shop', steps: ['Given I open "/"'], questions: [], resolved: [] },
      {
        line: 'I tapp "Sign in"',
        steps: [],
        questions: [{ clause: 'I tapp "Sign in"', candidates: ['I open "Sign in"', 'I click "Sign in"', 'I double-click "Sign in"'] }],
        resolved: [],
      },
      // Nothing comes close: the line is asked about all the same, never dropped.
      { line: 'dance a jig', steps: [], questions: [{ clause: 'dance a jig', candidates: [] }], resolved: [] },
      {
        line: 'I should sea "Welcome"',
        steps: [],
        questions: [{ clause: 'I should sea "Welcome"', candidates: ['I should see "Welcome"', 'I should not see "Welcome"'] }],
        resolved: [],
      },
    ]);
    expect(await versions()).toEqual(before);
  });

  it('reads nouns against the application map, says why in the reading, and saves the steps it showed', async () => {
    const { api, projectId } = await signUp(test);
    await api.call(workspaceCalls.pushEnv, { body: { projectId, name: 'todos', data: { baseUrl: 'http://127.0.0.1:4173/vanillajs/' } } });
    // TodoMVC's start page as a recording leaves it in the map (its list still empty).
    await new RecordedPagesRepo(test.database.db).remember(
      projectId,
      [
        {
          path: '/vanillajs/',
          url: 'http://127.0.0.1:4173/vanillajs/',
          title: 'VanillaJS • TodoMVC',
          ariaSnapshot:
            '- heading "todos" [level=1]\n- textbox "What needs to be done?"\n- contentinfo:\n  - paragraph: Double-click to edit a todo',
        },
      ],
      [],
    );
    const flow = ['start at the todo page', 'add "p"', 'tick "p"', 'type "q" into the todo box'];
    const answer = await api.call(aiCalls.scenarioReading, { body: { projectId, flow } });
    expect(answer.lines.map((line) => [line.steps, line.resolved.map((resolution) => resolution.why)])).toEqual([
      [['Given I open "/"'], ['The app’s map has no page “todo.html”: this opens /, its page headed “todos”.']],
      [['When I fill the 1st "textbox" with "p"', 'And I press "Enter"'], []],
      [
        ['And I check "checkbox" in the item containing "p"'],
        ['No checkbox on the app’s map is named “p”: this means the checkbox in the item containing “p”.'],
      ],
      // After Enter the page may have changed (a form may submit): its fields are not guessed.
      [['And I type "q" into "todo"'], []],
    ]);
    const created = await api.call(aiCalls.scenarioCreation, {
      body: { projectId, featureName: 'Todos', name: 'Tick by name', flow, parameters: {} },
    });
    expect(created.steps).toEqual(answer.lines.flatMap((line) => line.steps));
  });

  it('answers bad flows with a clear 400 or a question, never a 500, and saves nothing', async () => {
    const { api, projectId } = await signUp(test);
    const versions = () => api.call(workspaceCalls.getStableVersions, { query: { projectId } });
    const before = await versions();
    const read = (flow: string[]) => api.call(aiCalls.scenarioReading, { body: { projectId, flow } });
    const refused = async (flow: string[]) => {
      const error = await failure(read(flow));
      return [error.httpStatus, error.message];
    };
    // An empty flow, and more lines or longer lines than a scenario holds: refused, saying which rule.
    expect(await refused([])).toEqual([400, 'The flow cannot be empty.']);
    expect(await refused(Array.from({ length: 201 }, (_, i) => `click "B${i}"`))).toEqual([
      400,
      'A scenario holds at most 200 lines. Split the flow into several scenarios.',
    ]);
    expect(await refused(['x'.repeat(1001)])).toEqual([400, 'A line holds at most 1,000 characters. Split it into several lines.']);
    // At the limits the flow is read: 200 lines, a line of 1,000 characters; a script tag is words like any other.
    const many = await read(Array.from({ length: 200 }, (_, i) => `click "B${i}"`));
    expect(many.lines.every((line) => line.steps.length === 1 && line.questions.length === 0)).toBe(true);
    const long = await read([`dance ${'a'.repeat(994)}`]);
    expect(long.lines[0]!.questions).toHaveLength(1);
    const script = await read(['<script>alert(1)</script>']);
    expect(script.lines[0]).toEqual({
      line: '<script>alert(1)</script>',
      steps: [],
      questions: [{ clause: '<script>alert(1)</script>', candidates: [] }],
      resolved: [],
    });
    // A URL on a site no environment of the project names: asked about, with the page under the environment.
    const elsewhere = await read(['open "https://evil.example/login?next=/"']);
    expect(elsewhere.lines[0]).toEqual({
      line: 'open "https://evil.example/login?next=/"',
      steps: ['Given I open "https://evil.example/login?next=/"'],
      questions: [
        {
          clause: 'open "https://evil.example/login?next=/"',
          candidates: ['I open "/login?next=/"'],
          why: 'This line opens evil.example, a site outside this project’s environments. Open the page under the environment instead, or write the step in Gherkin to test another site.',
        },
      ],
      resolved: [],
    });
    const creation = await failure(
      api.call(aiCalls.scenarioCreation, {
        body: { projectId, featureName: 'Shop', name: 'x', flow: ['<script>alert(1)</script>'], parameters: {} },
      }),
    );
    expect(creation.httpStatus).toBe(400);
    expect(await versions()).toEqual(before);
  });

  it("answers the spec's message when the flow holds no action at all", async () => {
    const { api, projectId } = await signUp(test);
    const error = await failure(
      api.call(aiCalls.scenarioCreation, { body: { projectId, featureName: 'Shop', name: 'x', flow: [' , ;'], parameters: {} } }),
    );
    expect([error.httpStatus, error.message]).toEqual([400, 'An error occurred while trying to create the scenarios, please try again.']);
  });

  it('refuses to validate on an unknown environment before writing anything', async () => {
    const { api, projectId } = await signUp(test);
    const versions = () => api.call(workspaceCalls.getStableVersions, { query: { projectId } });
    const before = await versions();
    const error = await failure(
      api.call(aiCalls.scenarioCreation, {
        body: { projectId, featureName: 'Shop', name: 'x', flow: ['open the shop'], parameters: {}, validateOnEnvironment: 'nowhere' },
      }),
    );
    expect([error.httpStatus, error.message]).toEqual([404, 'Environment not found.']);
    expect(await versions()).toEqual(before);
  });

  it('generates code for an unimplemented step from the plain-English grammar and commits it', async () => {
    const { api, projectId } = await signUp(test);
    const answer = await api.call(aiCalls.generateStep, {
      body: {
        projectId,
        featureName: 'Shop',
        scenarioName: 'Sign in',
        stepText: 'When I log in as "demo@rehearse.dev" with "rehearse123"',
      },
    });
    expect(answer.file).toBe(GENERATED_STEPS_FILE);
    expect(answer.code).toContain("When('I log in as {string} with {string}', async function (p1, p2) {");
    expect(answer.code).toContain(
      'await context.web.fill("Email", p1, {}, {}, this);\n  await context.web.fill("Password", p2, {}, {}, this);\n  await context.web.click("Sign in", {}, {}, this);',
    );
    // The same step again, or a built-in one, already has code.
    for (const stepText of ['I log in as "someone@example.com" with "x"', 'I click "Sign in"']) {
      const again = await failure(
        api.call(aiCalls.generateStep, { body: { projectId, featureName: 'Shop', scenarioName: 'Sign in', stepText } }),
      );
      expect([again.httpStatus, again.message]).toEqual([
        409,
        'This step already has code: a step definition or a built-in step matches it.',
      ]);
    }
    const error = await failure(
      api.call(aiCalls.generateStep, { body: { projectId, featureName: 'Shop', scenarioName: 'x', stepText: 'the moon is full' } }),
    );
    expect([error.httpStatus, error.message]).toEqual([
      422,
      'The step could not be turned into code. Rephrase it with the plain-English steps (open, click, fill, select, check, press, see, wait).',
    ]);
  });

  it("suggests ideas from the description's keywords, and the spec's message when it has nothing", async () => {
    const { api, projectId } = await signUp(test);
    const ideas = await api.call(aiCalls.scenarioIdeas, { body: { projectId, description: 'log in and buy a lamp' } });
    expect(ideas.result.map((idea) => idea.name)).toEqual(['Sign in', 'Buy a product']);
    expect(ideas.result[0]!.parameters).toHaveProperty('user');
    const none = await api.call(aiCalls.scenarioIdeas, { body: { projectId, description: '' } });
    expect(none).toMatchObject({ result: [], error: 'An error occurred while trying to create the scenarios, please try again.' });
  });
});

describe('AI engine with an OpenAI-compatible provider', () => {
  let test: TestApp;
  let llm: FakeLlm;
  beforeAll(async () => {
    llm = await startFakeLlm();
    test = await startTestApp('pglite', {
      AI_BASE_URL: llm.baseUrl,
      AI_API_KEY: 'sk-test',
      AI_MODEL: 'tiny-model',
      AI_TIMEOUT_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await test?.close();
    await llm?.close();
  });

  it('uses the streamed answer for a free-form request, with the model and key configured', async () => {
    const { api, projectId } = await signUp(test);
    const edited = sample.code.replace('const options = {};', 'const options = { screenshot: false };');
    llm.answer({ kind: 'text', text: `Here you go:\n\`\`\`js\n${edited}\`\`\`` });
    const answer = await api.call(aiCalls.generateStepCode, { body: { projectId, ...stepBody('no screenshots in this step') } });
    expect(answer.result).toBe(edited);
    const request = llm.requests.at(-1)!;
    expect(request).toMatchObject({ model: 'tiny-model', stream: true, authorization: 'Bearer sk-test' });
    expect(request.messages.at(-1)!.content).toContain('no screenshots in this step');
  });

  it('falls back to the built-in engine on 429, 500, a timeout and a malformed answer', async () => {
    const { api, projectId } = await signUp(test);
    const retried = applyQuickPrompt(sample.code, sample.functionName, 'Retry step');
    for (const failing of [
      { kind: 'status', status: 429 },
      { kind: 'status', status: 500 },
      { kind: 'hang' },
      { kind: 'garbage' },
      { kind: 'text', text: 'sure! function (' },
      { kind: 'stream-error', text: 'par' },
    ] as const) {
      llm.answer(failing);
      const answer = await api.call(aiCalls.generateStepCode, { body: { projectId, ...stepBody('retry it when it fails') } });
      expect(answer.result, failing.kind).toBe(retried);
    }
  });

  it("answers the spec's message when the provider fails and no built-in answer exists", async () => {
    const { api, projectId } = await signUp(test);
    for (const failing of [
      { kind: 'status', status: 429 },
      { kind: 'status', status: 500 },
      { kind: 'hang' },
      { kind: 'garbage' },
    ] as const) {
      llm.answer(failing);
      const error = await failure(api.call(aiCalls.generateStepCode, { body: { projectId, ...stepBody('log the page title') } }));
      expect([error.httpStatus, error.message], failing.kind).toEqual([502, 'Error updating the step code. Please try again.']);
    }
  });

  it('asks the provider only for the lines the grammar cannot read, and keeps only runnable steps', async () => {
    const { api, projectId } = await signUp(test);
    llm.answer({
      kind: 'text',
      text: JSON.stringify({
        translations: [
          { line: 'dance a jig', steps: ['I click "Dance"'] },
          { line: 'sing loudly', steps: ['I sing'] },
        ],
      }),
    });
    const refused = await failure(
      api.call(aiCalls.scenarioCreation, {
        body: { projectId, featureName: 'Party', name: 'Party', flow: ['open the shop', 'dance a jig', 'sing loudly'], parameters: {} },
      }),
    );
    expect(refused.message).toContain('“sing loudly”');
    expect(refused.message).not.toContain('dance a jig');
    expect(llm.requests.at(-1)!.messages.at(-1)!.content).toBe(JSON.stringify(['dance a jig', 'sing loudly']));
    llm.answer({ kind: 'text', text: JSON.stringify({ translations: [{ line: 'dance a jig', steps: ['I click "Dance"'] }] }) });
    const answer = await api.call(aiCalls.scenarioCreation, {
      body: { projectId, featureName: 'Party', name: 'Party', flow: ['open the shop', 'dance a jig'], parameters: {} },
    });
    expect(answer.steps).toEqual(['Given I open "/"', 'When I click "Dance"']);
  });

  it('names the elements of the application map to the provider, and replays its recorded answer as built-in steps', async () => {
    const { api, projectId } = await signUp(test);
    await new RecordedPagesRepo(test.database.db).remember(
      projectId,
      [
        {
          path: '/checkout.html',
          url: 'http://rehearse.test/demo-shop/checkout.html',
          title: 'Checkout',
          ariaSnapshot: '- textbox "Full name"\n- button "Place order"',
        },
      ],
      [],
    );
    // An answer as a model gave it for this prompt, replayed: the map's exact name, in a catalogue step.
    llm.answer({
      kind: 'text',
      text: JSON.stringify({ translations: [{ line: 'smash the big order button', steps: ['I click "Place order"'] }] }),
    });
    const answer = await api.call(aiCalls.scenarioCreation, {
      body: {
        projectId,
        featureName: 'Checkout',
        name: 'Order',
        flow: ['go to checkout.html', 'smash the big order button'],
        parameters: {},
      },
    });
    expect(answer.steps).toEqual(['Given I open "checkout.html"', 'When I click "Place order"']);
    const system = llm.requests.at(-1)!.messages[0]!.content;
    expect(system).toContain('Elements of the application (name an element by its exact name): textbox "Full name"; button "Place order".');
  });

  it("escapes what cucumber reads as syntax in a generated step's expression, so the step matches its own text", async () => {
    const { api, projectId } = await signUp(test);
    llm.answer({ kind: 'text', text: "```js\nawait context.web.click('Save', {}, {}, this);\n```" });
    const stepText = 'I save the form (twice) and/or leave {now}';
    const answer = await api.call(aiCalls.generateStep, { body: { projectId, featureName: 'Shop', scenarioName: 'Save', stepText } });
    expect(answer.code).toContain(String.raw`When('I save the form \\(twice\\) and\\/or leave \\{now\\}', async function () {`);
    const again = await failure(
      api.call(aiCalls.generateStep, { body: { projectId, featureName: 'Shop', scenarioName: 'Save', stepText } }),
    );
    expect(again.httpStatus).toBe(409);
  });

  it('names the line the grammar cannot read when the provider fails, and writes nothing', async () => {
    const { api, projectId } = await signUp(test);
    for (const [i, failing] of (
      [{ kind: 'status', status: 429 }, { kind: 'hang' }, { kind: 'garbage' }, { kind: 'text', text: '{"translations": 3}' }] as const
    ).entries()) {
      llm.answer(failing);
      const error = await failure(
        api.call(aiCalls.scenarioCreation, {
          body: { projectId, featureName: 'Party', name: `Fallback ${i}`, flow: ['open the shop', 'dance a jig'], parameters: {} },
        }),
      );
      expect([error.httpStatus, error.message], failing.kind).toEqual([
        400,
        'Nothing was created: this line does not read as a step: “dance a jig”. Rephrase it with the words of the Steps reference, or write a step in Gherkin.',
      ]);
    }
    const error = await failure(api.call(workspaceCalls.getFileContent, { query: { projectId, file_path: 'features/Party.feature' } }));
    expect(error.httpStatus).toBe(404);
  });

  it("gives the provider's richer ideas, and the built-in ones when it fails", async () => {
    const { api, projectId } = await signUp(test);
    llm.answer({
      kind: 'text',
      text: '```json\n{"ideas":[{"name":"Reset password","flow":["click \\"Forgot password\\""],"parameters":{}}]}\n```',
    });
    const rich = await api.call(aiCalls.scenarioIdeas, { body: { projectId, description: 'log in' } });
    expect(rich.result.map((idea) => idea.name)).toEqual(['Reset password']);
    llm.answer({ kind: 'status', status: 500 });
    const fallback = await api.call(aiCalls.scenarioIdeas, { body: { projectId, description: 'log in' } });
    expect(fallback.result.map((idea) => idea.name)).toEqual(['Sign in']);
  });
});
