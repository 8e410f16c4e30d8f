/**
 * The step code dialog's rules (spec 02 §4, §5) as a state machine: read-only → edit → review
 * (side-by-side diff) → save. Save checks the syntax first and asks 'Save Anyway' or 'Back to
 * editing' when the code does not parse; leaving a changed step (another step, closing, Discard)
 * asks first; the AI step update puts its code up for review. `transition` is pure: what it cannot
 * do itself (check syntax, save, close the dialog) it names as an effect for the component to run,
 * which reports the outcome back as an event.
 */

export type Mode = 'view' | 'edit' | 'review';

/** Ways out of the current step's changes. */
export type Leave = { kind: 'switch'; index: number } | { kind: 'close' } | { kind: 'discard' };

/** The question the dialog is asking, if any. */
export type Confirm =
  /** Leaving a changed step for another one, or closing: save or discard? */
  | { kind: 'unsaved'; then: Exclude<Leave, { kind: 'discard' }> }
  /** Discard pressed on a changed step: really? */
  | { kind: 'discard' }
  /** The code does not parse: save anyway, or back to editing? `then` is where a save was headed. */
  | { kind: 'syntax'; then: Leave | null };

export interface StepCodeState {
  /** Which of the scenario's steps with code is open. */
  index: number;
  mode: Mode;
  /** The code being edited or reviewed; in view mode the stored code shows instead. */
  draft: string;
  /** Lines with syntax errors in the draft (1-based). */
  errors: number[];
  confirm: Confirm | null;
  /** A save under way: checking the syntax, then saving; `then` is where to go once it is saved. */
  busy: { step: 'checking' | 'saving'; then: Leave | null } | null;
}

export type StepCodeEvent =
  | { type: 'opened'; index: number }
  | { type: 'editRequested' }
  | { type: 'edited'; draft: string }
  | { type: 'reviewRequested' }
  | { type: 'backToEditing' }
  /** The debounced syntax check of the draft came back. */
  | { type: 'linted'; errors: number[] }
  | { type: 'aiProposed'; code: string }
  | { type: 'leaveRequested'; leave: Leave }
  /** Keep editing, or the question closed with Escape. */
  | { type: 'confirmDismissed' }
  | { type: 'discardConfirmed' }
  | { type: 'saveRequested' }
  | { type: 'saveAnywayConfirmed' }
  /** The check before a save came back. */
  | { type: 'syntaxChecked'; errors: number[] }
  | { type: 'saved' }
  | { type: 'saveFailed' };

export type StepCodeEffect = { kind: 'checkSyntax'; code: string } | { kind: 'save'; code: string } | { kind: 'close' };

/** What the machine reads from outside it: the stored code of the open step. */
export interface StepCodeContext {
  original: string;
}

export interface Transition {
  state: StepCodeState;
  effect: StepCodeEffect | null;
}

export const initialStepCodeState: StepCodeState = { index: 0, mode: 'view', draft: '', errors: [], confirm: null, busy: null };

/** The code the dialog shows: the stored code while viewing, else the draft. */
export function shownCode(state: StepCodeState, context: StepCodeContext): string {
  return state.mode === 'view' ? context.original : state.draft;
}

/** Whether the draft differs from the stored code (only editing or reviewing can change it). */
export function hasChanges(state: StepCodeState, context: StepCodeContext): boolean {
  return state.mode !== 'view' && state.draft !== context.original;
}

const stay = (state: StepCodeState): Transition => ({ state, effect: null });

/** Read-only again on the same step, changes dropped. */
const backToView = (state: StepCodeState): StepCodeState => ({ ...state, mode: 'view', draft: '', errors: [], confirm: null, busy: null });

function leave(state: StepCodeState, to: Leave | null): Transition {
  if (to === null) return stay(state);
  if (to.kind === 'close') return { state, effect: { kind: 'close' } };
  if (to.kind === 'switch') return stay({ ...backToView(state), index: to.index });
  return stay(backToView(state));
}

export function transition(state: StepCodeState, event: StepCodeEvent, context: StepCodeContext): Transition {
  switch (event.type) {
    case 'opened':
      return stay({ ...initialStepCodeState, index: event.index });
    case 'editRequested':
      return state.mode === 'view' ? stay({ ...state, mode: 'edit', draft: context.original, errors: [] }) : stay(state);
    case 'edited':
      return state.mode === 'edit' ? stay({ ...state, draft: event.draft }) : stay(state);
    case 'reviewRequested':
      return state.mode === 'edit' && hasChanges(state, context) ? stay({ ...state, mode: 'review' }) : stay(state);
    case 'backToEditing':
      return state.mode === 'view' ? stay(state) : stay({ ...state, mode: 'edit', confirm: null });
    case 'linted':
      return state.mode === 'view' ? stay(state) : stay({ ...state, errors: event.errors });
    case 'aiProposed':
      return stay({ ...state, mode: 'review', draft: event.code });
    case 'leaveRequested':
      if (!hasChanges(state, context)) return leave(state, event.leave);
      return stay({ ...state, confirm: event.leave.kind === 'discard' ? { kind: 'discard' } : { kind: 'unsaved', then: event.leave } });
    case 'confirmDismissed':
      return stay({ ...state, confirm: null });
    case 'discardConfirmed': {
      const confirm = state.confirm;
      if (confirm?.kind === 'discard') return leave({ ...state, confirm: null }, { kind: 'discard' });
      if (confirm?.kind === 'unsaved') return leave({ ...state, confirm: null }, confirm.then);
      return stay(state);
    }
    case 'saveRequested': {
      if (state.busy || state.mode === 'view') return stay(state);
      const then = state.confirm?.kind === 'unsaved' ? state.confirm.then : null;
      // Checked now, not only after the debounce: the last keystrokes may not have been checked yet.
      return { state: { ...state, confirm: null, busy: { step: 'checking', then } }, effect: { kind: 'checkSyntax', code: state.draft } };
    }
    case 'syntaxChecked': {
      if (state.busy?.step !== 'checking') return stay(state);
      const then = state.busy.then;
      if (event.errors.length > 0) return stay({ ...state, errors: event.errors, busy: null, confirm: { kind: 'syntax', then } });
      return { state: { ...state, errors: [], busy: { step: 'saving', then } }, effect: { kind: 'save', code: state.draft } };
    }
    case 'saveAnywayConfirmed': {
      if (state.confirm?.kind !== 'syntax') return stay(state);
      const then = state.confirm.then;
      return { state: { ...state, confirm: null, busy: { step: 'saving', then } }, effect: { kind: 'save', code: state.draft } };
    }
    case 'saved': {
      if (state.busy?.step !== 'saving') return stay(state);
      const then = state.busy.then;
      return leave(backToView(state), then);
    }
    case 'saveFailed':
      return stay({ ...state, busy: null });
  }
}
