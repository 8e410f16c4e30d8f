import { Messages } from '@rehearse/contract';

/** Where a cloud recorder session is, as the remote recorder page shows it. */
export type RecorderPhase = 'creating' | 'preparing' | 'connected' | 'reconnecting' | 'published' | 'ended' | 'error';

/** A two-part error screen: its title and its text. */
export interface RecorderProblem {
  title: string;
  text: string;
}

/** The spec's two-part error screens (spec 02 §8), from the server's message; anything else is the generic load error. */
export function problemOf(message: string): RecorderProblem {
  if (message === Messages.recorderMaxSessions) return { title: Messages.recorderMaxSessionsTitle, text: message };
  if (message === Messages.recorderUnreachable) return { title: Messages.recorderUnreachableTitle, text: message };
  if (message === Messages.recorderOverloaded) return { title: Messages.recorderSessionLoadTitle, text: message };
  return { title: Messages.recorderSessionLoadTitle, text: Messages.recorderSessionLoadError };
}

/** Time left as mm:ss, never below 00:00. */
export function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** Whether the stream is up (or was, and is coming back): the display and the recording controls are live. */
export function isLive(phase: RecorderPhase): boolean {
  return phase === 'connected' || phase === 'published' || phase === 'reconnecting';
}

/**
 * The remote page's viewport from the display area: its size, kept between 800×600 and
 * 1600×1200 so the recorded page is neither cramped nor larger than the server allows.
 */
export function viewportFor(area: { width: number; height: number }): { width: number; height: number } {
  return {
    width: Math.max(800, Math.min(1600, Math.round(area.width))),
    height: Math.max(600, Math.min(1200, Math.round(area.height))),
  };
}

/** What was recorded, as one comparable value: publishing remembers it, so the page knows when steps were added or undone since. */
export function stepsKey(commands: readonly unknown[]): string {
  return JSON.stringify(commands);
}

/**
 * Whether ending now would lose steps: more than the opening navigation (always the first
 * command) was recorded and it is not what was last published.
 */
export function hasUnpublishedSteps(commands: readonly unknown[], publishedKey: string | null): boolean {
  return commands.length > 1 && stepsKey(commands) !== publishedKey;
}
