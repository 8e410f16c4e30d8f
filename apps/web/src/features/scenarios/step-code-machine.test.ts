import { describe, expect, it } from 'vitest';
import {
  hasChanges,
  initialStepCodeState,
  shownCode,
  transition,
  type StepCodeEffect,
  type StepCodeEvent,
  type StepCodeState,
} from './step-code-machine';

const STORED = { original: "When('I wave', async function () {});\n" };
const EDITED = "When('I wave', async function () { await this.page.mouse.move(2, 2); });\n";

/** Applies events in order and keeps every effect they named. */
function run(events: StepCodeEvent[], from: StepCodeState = initialStepCodeState) {
  const effects: StepCodeEffect[] = [];
  let state = from;
  for (const event of events) {
    const next = transition(state, event, STORED);
    state = next.state;
    if (next.effect) effects.push(next.effect);
  }
  return { state, effects };
}

const editedDraft: StepCodeEvent[] = [{ type: 'opened', index: 0 }, { type: 'editRequested' }, { type: 'edited', draft: EDITED }];

describe('the step code machine', () => {
  it('opens read-only on the chosen step, showing the stored code', () => {
    const { state } = run([{ type: 'opened', index: 2 }]);
    expect([state.index, state.mode, shownCode(state, STORED)]).toEqual([2, 'view', STORED.original]);
  });

  it('edits a copy of the stored code; the code counts as changed only once it differs', () => {
    const editing = run([{ type: 'opened', index: 0 }, { type: 'editRequested' }]).state;
    expect([editing.mode, editing.draft, hasChanges(editing, STORED)]).toEqual(['edit', STORED.original, false]);
    expect(hasChanges(run(editedDraft).state, STORED)).toBe(true);
  });

  it('opens the review only when the code changed (Review is disabled otherwise)', () => {
    expect(run([{ type: 'opened', index: 0 }, { type: 'editRequested' }, { type: 'reviewRequested' }]).state.mode).toBe('edit');
    expect(run([...editedDraft, { type: 'reviewRequested' }]).state.mode).toBe('review');
  });

  it('checks the syntax before saving, then saves and is read-only again', () => {
    const asked = run([...editedDraft, { type: 'reviewRequested' }, { type: 'saveRequested' }]);
    expect(asked.effects).toEqual([{ kind: 'checkSyntax', code: EDITED }]);
    const checked = run([{ type: 'syntaxChecked', errors: [] }], asked.state);
    expect(checked.effects).toEqual([{ kind: 'save', code: EDITED }]);
    expect(checked.state.busy?.step).toBe('saving');
    const saved = run([{ type: 'saved' }], checked.state);
    expect([saved.state.mode, saved.state.busy, saved.effects]).toEqual(['view', null, []]);
  });

  it("asks 'Save Anyway' or 'Back to editing' when the code does not parse", () => {
    const broken = run([...editedDraft, { type: 'reviewRequested' }, { type: 'saveRequested' }, { type: 'syntaxChecked', errors: [3] }]);
    expect([broken.state.confirm, broken.state.errors, broken.effects.length]).toEqual([{ kind: 'syntax', then: null }, [3], 1]);
    const back = run([{ type: 'backToEditing' }], broken.state);
    expect([back.state.mode, back.state.confirm, back.effects]).toEqual(['edit', null, []]);
    const anyway = run([{ type: 'saveAnywayConfirmed' }], broken.state);
    expect(anyway.effects).toEqual([{ kind: 'save', code: EDITED }]);
  });

  it('stays in review with the draft kept when the save fails', () => {
    const failed = run([
      ...editedDraft,
      { type: 'reviewRequested' },
      { type: 'saveRequested' },
      { type: 'syntaxChecked', errors: [] },
      { type: 'saveFailed' },
    ]);
    expect([failed.state.mode, failed.state.draft, failed.state.busy]).toEqual(['review', EDITED, null]);
  });

  it('closes at once without changes, and asks first with them', () => {
    expect(
      run([
        { type: 'opened', index: 0 },
        { type: 'leaveRequested', leave: { kind: 'close' } },
      ]).effects,
    ).toEqual([{ kind: 'close' }]);
    const asked = run([...editedDraft, { type: 'leaveRequested', leave: { kind: 'close' } }]);
    expect([asked.state.confirm, asked.effects]).toEqual([{ kind: 'unsaved', then: { kind: 'close' } }, []]);
    expect(run([{ type: 'discardConfirmed' }], asked.state).effects).toEqual([{ kind: 'close' }]);
    expect(run([{ type: 'confirmDismissed' }], asked.state).state).toMatchObject({ mode: 'edit', draft: EDITED, confirm: null });
  });

  it("saves before switching to another step when 'Save changes' is chosen, and switches once saved", () => {
    const asked = run([...editedDraft, { type: 'leaveRequested', leave: { kind: 'switch', index: 1 } }]);
    const saving = run([{ type: 'saveRequested' }, { type: 'syntaxChecked', errors: [] }], asked.state);
    expect(saving.state.index).toBe(0);
    const saved = run([{ type: 'saved' }], saving.state);
    expect([saved.state.index, saved.state.mode]).toEqual([1, 'view']);
  });

  it("still leaves after 'Save Anyway' when the save was on the way out", () => {
    const asked = run([...editedDraft, { type: 'leaveRequested', leave: { kind: 'close' } }]);
    const broken = run([{ type: 'saveRequested' }, { type: 'syntaxChecked', errors: [1] }], asked.state);
    expect(broken.state.confirm).toEqual({ kind: 'syntax', then: { kind: 'close' } });
    const saved = run([{ type: 'saveAnywayConfirmed' }, { type: 'saved' }], broken.state);
    expect(saved.effects).toEqual([{ kind: 'save', code: EDITED }, { kind: 'close' }]);
  });

  it('asks before discarding changes, and discarding shows the stored code again', () => {
    const asked = run([...editedDraft, { type: 'leaveRequested', leave: { kind: 'discard' } }]);
    expect(asked.state.confirm).toEqual({ kind: 'discard' });
    const discarded = run([{ type: 'discardConfirmed' }], asked.state).state;
    expect([discarded.mode, shownCode(discarded, STORED)]).toEqual(['view', STORED.original]);
  });

  it("puts the AI step update's code up for review, even from read-only", () => {
    const { state } = run([
      { type: 'opened', index: 0 },
      { type: 'aiProposed', code: EDITED },
    ]);
    expect([state.mode, shownCode(state, STORED)]).toEqual(['review', EDITED]);
  });

  it('ignores a late syntax check once the dialog is read-only again', () => {
    const { state } = run([
      ...editedDraft,
      { type: 'leaveRequested', leave: { kind: 'discard' } },
      { type: 'discardConfirmed' },
      { type: 'linted', errors: [4] },
    ]);
    expect(state.errors).toEqual([]);
  });
});
