import { readInjectScript } from '../inject/scripts.js';
import { describeRecordedStep, describeRecordingCheck, Messages, type RecordedCommand, type RecordingCheck } from '@rehearse/contract';
import type { BrowserContext } from 'playwright-core';
import type { AssertMode, RecorderSession, SessionPanel } from '../session.js';

/** The names a recording is published under. */
export interface PublishNames {
  featureName: string;
  scenarioName: string;
}

export interface LocalPanelOptions extends PublishNames {
  /** Existing feature names, offered while typing the feature (new or existing). */
  features: () => Promise<string[]>;
  /** Publishes the recording; answers the line the panel shows. Throws with the message to show. */
  publish: (names: PublishNames) => Promise<string>;
}

/** What the page's panel is sent on every change (it keeps no state of its own). */
export interface PanelState extends PublishNames {
  steps: { text: string; assertion: boolean }[];
  features: string[];
  assertMode: AssertMode | null;
  status: { kind: 'busy' | 'published' | 'error'; text: string } | null;
  /** The self-check after Publish (the recording replayed once on this machine), in words; `hint` says what to do about a flag. */
  check: { kind: RecordingCheck['state']; text: string; hint?: string } | null;
  /** Where the person dragged the panel (viewport pixels of its top left); null: bottom right. */
  position: { x: number; y: number } | null;
  collapsed: boolean;
}

/** What the panel asks through the `__rehearsePanel` binding. */
export type PanelRequest =
  | { action: 'state' }
  | { action: 'undo' }
  | { action: 'assert'; mode: AssertMode | 'verifyUrl' | null }
  | { action: 'names'; featureName: string; scenarioName: string }
  | { action: 'layout'; collapsed: boolean; position: { x: number; y: number } | null }
  | { action: 'publish'; featureName: string; scenarioName: string };

/** The panel's words; the same as the cloud recorder page's side panel. */
export const PANEL_LABELS = {
  title: 'Rehearse recorder',
  hide: 'Hide',
  show: 'Show',
  steps: 'Recorded steps',
  noSteps: 'Use the page: every click, field and choice becomes a step here.',
  addAssertion: 'Add assertion',
  assertVisible: 'Visible',
  assertText: 'Text',
  assertValue: 'Value',
  assertChecked: 'Checked',
  assertCount: 'Count',
  assertItems: 'List',
  assertClass: 'Class',
  assertUrl: 'URL',
  assertHint:
    'Click the element to check in the page (↓ picks the element beneath one laid over it): Visible checks it is shown, Text that its text is shown, Value what a field holds, Checked whether a checkbox is ticked, Count how many items its list shows, List its items in order, Class the class its state shows (the one that last changed).',
  undo: 'Undo last',
  featureName: 'Feature (new or existing)',
  scenarioName: 'Scenario name',
  publish: 'Publish',
  publishing: 'Publishing…',
} as const;

let source: string | undefined;

function panelScript(): string {
  source ??= readInjectScript('panel.js');
  return `${source.trim().replace(/;?\s*$/, '')}(${JSON.stringify({ labels: PANEL_LABELS })});`;
}

/**
 * The local recorder's in-browser panel (DESIGN §7): the recorded steps live, Add assertion, Undo
 * last and Publish, drawn by `inject/panel.js` in the recorded page's top frame. The state lives
 * here, so every page the recording visits shows the same panel.
 */
export class LocalPanel implements SessionPanel {
  private readonly state: PanelState;
  private context: BrowserContext | undefined;
  private session: RecorderSession | undefined;
  private featuresLoaded = false;

  constructor(private readonly options: LocalPanelOptions) {
    this.state = {
      steps: [],
      featureName: options.featureName,
      scenarioName: options.scenarioName,
      features: [],
      assertMode: null,
      status: null,
      check: null,
      position: null,
      collapsed: false,
    };
  }

  /** The names as the person left them in the panel (a publish from the terminal uses them too). */
  get names(): PublishNames {
    return { featureName: this.state.featureName, scenarioName: this.state.scenarioName };
  }

  async install(context: BrowserContext, session: RecorderSession): Promise<void> {
    this.context = context;
    this.session = session;
    await context.exposeBinding('__rehearsePanel', ({ frame }, request: PanelRequest) =>
      frame.parentFrame() ? undefined : this.handle(request),
    );
    await context.addInitScript(panelScript());
  }

  /** Shows how the self-check of the Publish goes: checking, then the pass or the flagged step. */
  showCheck(check: RecordingCheck): void {
    this.state.check = {
      kind: check.state,
      text: describeRecordingCheck(check),
      ...(check.state === 'failed' ? { hint: Messages.recorderCheckFix } : {}),
    };
    this.render();
  }

  update(commands: RecordedCommand[]): void {
    this.state.steps = commands.map((command) => ({ text: describeRecordedStep(command), assertion: command.type.startsWith('verify') }));
    // A step arrived (or went): any assertion the person asked for has been made or abandoned.
    this.state.assertMode = null;
    this.render();
  }

  private async handle(request: PanelRequest): Promise<PanelState | undefined> {
    const session = this.session;
    if (!session) return undefined;
    switch (request.action) {
      case 'state':
        // A fresh page: the capture script it got has no assertion pending.
        this.state.assertMode = null;
        this.update(session.commands);
        void this.loadFeatures();
        return this.state;
      case 'undo':
        session.undo();
        return undefined;
      case 'assert':
        if (request.mode === 'verifyUrl') {
          await session.assertUrl();
          return undefined;
        }
        this.state.assertMode = request.mode;
        // The panel armed its own page already (panel.js); the recorder arms the frames inside it.
        await session.assertNext(request.mode, 'children');
        this.render();
        return undefined;
      case 'names':
        this.state.featureName = String(request.featureName).slice(0, 200);
        this.state.scenarioName = String(request.scenarioName).slice(0, 200);
        return undefined;
      case 'layout': {
        const { x, y } = request.position ?? {};
        this.state.position = Number.isFinite(x) && Number.isFinite(y) ? { x: x!, y: y! } : null;
        this.state.collapsed = request.collapsed === true;
        return undefined;
      }
      case 'publish':
        await this.publish({ featureName: String(request.featureName), scenarioName: String(request.scenarioName) });
        return undefined;
    }
  }

  private async publish(names: PublishNames): Promise<void> {
    if (this.state.status?.kind === 'busy') return;
    this.state.featureName = names.featureName;
    this.state.scenarioName = names.scenarioName;
    this.state.status = { kind: 'busy', text: PANEL_LABELS.publishing };
    this.render();
    try {
      this.state.status = { kind: 'published', text: await this.options.publish(names) };
    } catch (error) {
      this.state.status = { kind: 'error', text: error instanceof Error ? error.message : String(error) };
    }
    this.render();
  }

  private async loadFeatures(): Promise<void> {
    if (this.featuresLoaded) return;
    this.featuresLoaded = true;
    try {
      this.state.features = await this.options.features();
      this.render();
    } catch {
      // Offering existing names is a convenience; a new name can always be typed.
      this.featuresLoaded = false;
    }
  }

  /** Sends the state to the panel of every open page (the person may be on any of them). */
  private render(): void {
    for (const page of this.context?.pages() ?? []) {
      page
        .evaluate(
          (state) => (globalThis as unknown as { __rehearsePanelRender?: (s: PanelState) => void }).__rehearsePanelRender?.(state),
          this.state,
        )
        .catch(() => undefined);
    }
  }
}
