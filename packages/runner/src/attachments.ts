import type { Command, NetworkEntry, WebLogEntry } from '@rehearse/contract';

// The support code talks to the report formatter only through cucumber attachments: they travel
// in the message stream, so the same report comes out of `rehearse run`, of plain cucumber-js and
// of parallel workers, and nothing depends on sharing a module instance with the formatter.

export const MediaTypes = {
  command: 'application/vnd.rehearse.command+json',
  network: 'application/vnd.rehearse.network+json',
  webLog: 'application/vnd.rehearse.weblog+json',
  aria: 'application/vnd.rehearse.aria+json',
  scenario: 'application/vnd.rehearse.scenario+json',
  /** A kept Playwright trace: the file (secrets masked) the formatter moves into the artifacts. */
  trace: 'application/vnd.rehearse.trace+json',
  screenshot: 'image/png',
} as const;

/** A kept trace: a file of the run's own (secrets masked) that is the formatter's to move. */
export interface TraceAttachment {
  file: string;
}

/** A finished command of the step the attachment belongs to. */
export type CommandAttachment = Command;

/**
 * Requests or console lines, tagged with the cucumber test step that was running when they began
 * (they are often flushed later, from another step or hook). null: before the first step.
 */
export interface NetworkAttachment {
  testStepId: string | null;
  entries: NetworkEntry[];
}

export interface WebLogAttachment {
  testStepId: string | null;
  entries: WebLogEntry[];
}

/** `initial`: the first page the scenario reached; `step`: the page when a step failed. */
export interface AriaAttachment {
  kind: 'initial' | 'step';
  testStepId: string | null;
  url: string;
  snapshot: string;
}

/** What a scenario ran against, sent once at its start. */
export interface ScenarioAttachment {
  env: { name: string; baseUrl: string };
  browser: string;
  viewport: { width: number; height: number };
}
