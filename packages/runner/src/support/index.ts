import {
  After,
  AfterAll,
  AfterStep,
  Before,
  BeforeStep,
  setDefaultTimeout,
  setWorldConstructor,
  Status,
  type IContext,
} from '@cucumber/cucumber';
import { setCurrentWorld } from './commands.js';
import { defineSteps } from './steps.js';
import { closeSharedBrowser, RehearseWorld, resolveSettings, type RehearseParameters } from './world.js';

export interface SupportOptions {
  /** Cucumber's step timeout; the project's stepTimeoutMs (rehearse.config.json) by default. */
  stepTimeoutMs?: number;
  /** Where the run's workspace is (its reusable steps are read from it); the working directory by default, as plain cucumber-js runs. */
  workspaceDir?: string;
}

/**
 * Registers Rehearse into the cucumber support library being loaded: the World, the hooks that
 * open a page per scenario and capture network, console and ARIA snapshots, and the built-in and
 * API steps. Call it once per cucumber run, from a support file.
 */
export function registerSupport(options: SupportOptions = {}): void {
  setWorldConstructor(RehearseWorld);
  setDefaultTimeout(options.stepTimeoutMs ?? resolveSettings(undefined).stepTimeoutMs);

  Before({ name: 'Rehearse: open a page' }, async function (this: RehearseWorld, { pickle }) {
    setCurrentWorld(this);
    this.loadRecordedEffects(pickle.uri, pickle.name);
    await this.openPage(pickle);
  });

  BeforeStep(async function (this: RehearseWorld, { testStepId, pickleStep }) {
    this.currentStepId = testStepId;
    this.beginStep(pickleStep.text);
    this.docStringMediaType = pickleStep.argument?.docString?.mediaType;
    const elapsed = Date.now() - this.scenarioStartedAt;
    if (elapsed > this.settings.scenarioTimeoutMs) {
      throw new Error(`The scenario ran longer than its ${this.settings.scenarioTimeoutMs} ms limit (scenarioTimeoutMs)`);
    }
    await this.traceStepStarted(pickleStep.text);
  });

  AfterStep(async function (this: RehearseWorld, { result }) {
    if (result.status === Status.FAILED) {
      const snapshot = await this.ariaSnapshot();
      if (snapshot !== undefined) this.attachAria('step', snapshot);
    }
    await this.traceStepEnded();
    this.startInitialAriaSnapshot();
    await this.flush(false);
  });

  After({ name: 'Rehearse: close the page' }, async function (this: RehearseWorld, { result }) {
    try {
      await this.flush(true);
      await this.finishTrace(result?.status === Status.FAILED);
    } finally {
      await this.closePage();
      setCurrentWorld(undefined);
    }
  });

  AfterAll(async function (this: IContext<RehearseParameters>) {
    // A worker thread runs one scenario per run: relaunching Chromium each time would cost more than the scenario.
    if (resolveSettings(this.parameters).keepBrowser) return;
    await closeSharedBrowser();
  });

  defineSteps(options.workspaceDir ?? process.cwd());
}
