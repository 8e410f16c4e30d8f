/**
 * Everything CodeMirror: loaded only through `editor/lazy.tsx`, so the editor (about 150 KB) is
 * its own chunk, fetched when a Gherkin or step-code view first opens.
 */
import { autocompletion, snippet, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { history, defaultKeymap, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript, javascriptLanguage } from '@codemirror/lang-javascript';
import { defaultHighlightStyle, indentUnit, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { gherkin } from '@codemirror/legacy-modes/mode/gherkin';
import { lintKeymap, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { MergeView } from '@codemirror/merge';
import { Compartment, EditorState, RangeSetBuilder, type Extension } from '@codemirror/state';
import { Decoration, EditorView, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import { useEffect, useEffectEvent, useMemo, useRef } from 'react';
import { stepKeywords, stepTextStart, undefinedStepMessage, type GherkinHelp, type StepChoice } from '../step-help';
import { FeatureStrings as S } from '../strings';

/** Spec 02 §9: editor tab size 2. */
const TAB_SIZE = 2;

const theme = EditorView.theme({
  '&': { fontSize: '13px', backgroundColor: '#ffffff' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', padding: '8px 0' },
  '.cm-gutters': { backgroundColor: '#f8fafc', color: '#64748b', borderRight: '1px solid #e2e8f0' },
  '&.cm-focused': { outline: '2px solid #6366f1', outlineOffset: '-2px' },
  '.cm-error-line': { backgroundColor: '#fee2e2' },
  '.cm-scroller': { overflow: 'auto' },
  // Completion and warning tooltips in the app's colours.
  '.cm-tooltip': {
    border: '1px solid #e2e8f0',
    borderRadius: '8px',
    backgroundColor: '#ffffff',
    boxShadow: '0 8px 24px rgb(15 23 42 / 0.12)',
    overflow: 'hidden',
  },
  '.cm-tooltip.cm-tooltip-autocomplete > ul': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', maxHeight: '16em' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul > li': { padding: '3px 10px' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { backgroundColor: '#eef2ff', color: '#312e81' },
  '.cm-completionDetail': { marginLeft: '12px', color: '#64748b', fontStyle: 'normal', fontSize: '11px' },
  '.cm-completionMatchedText': { textDecoration: 'none', fontWeight: '600' },
  '.cm-tooltip.cm-completionInfo': { maxWidth: '320px', padding: '8px 10px', whiteSpace: 'pre-wrap', fontSize: '12px', color: '#334155' },
  '.cm-diagnostic': { padding: '6px 10px', fontSize: '12px' },
  '.cm-diagnosticAction': { backgroundColor: '#4f46e5', borderRadius: '6px', padding: '2px 8px' },
});

function base(language: 'gherkin' | 'javascript'): Extension[] {
  return [
    lineNumbers(),
    history(),
    keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap, indentWithTab]),
    EditorState.tabSize.of(TAB_SIZE),
    indentUnit.of(' '.repeat(TAB_SIZE)),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    language === 'gherkin' ? StreamLanguage.define(gherkin) : javascript(),
    theme,
  ];
}

function errorLines(lines: readonly number[]): Extension {
  return EditorView.decorations.of((view): DecorationSet => {
    const builder = new RangeSetBuilder<Decoration>();
    const doc = view.state.doc;
    for (const n of [...new Set(lines)].sort((a, b) => a - b)) {
      if (n >= 1 && n <= doc.lines) builder.add(doc.line(n).from, doc.line(n).from, Decoration.line({ class: 'cm-error-line' }));
    }
    return builder.finish();
  });
}

function completionOptions(choices: readonly StepChoice[]): Completion[] {
  return choices.map((choice) => ({
    label: choice.label,
    detail: choice.detail,
    info: choice.example ? `${choice.description}\n\n${choice.example}` : choice.description || undefined,
    type: 'function',
    apply: snippet(choice.snippet),
  }));
}

/**
 * Completes the step text after `Given`/`When`/`Then`/`And`/`But`/`*` with the steps that run.
 * The options are read when the list opens: reconfiguring the extension when the project's steps
 * arrive would close a list the user is about to pick from.
 */
function stepCompletion(currentOptions: () => readonly Completion[]): Extension {
  const source = (context: CompletionContext): CompletionResult | null => {
    const line = context.state.doc.lineAt(context.pos);
    const start = stepTextStart(line.text, stepKeywords(context.state.doc.sliceString(0, 2000)));
    if (start < 0 || context.pos < line.from + start) return null;
    // Typing opens the list; Ctrl-Space opens it on an empty step too.
    if (!context.explicit && context.pos === line.from + start) return null;
    return { from: line.from + start, options: [...currentOptions()], validFor: /^[^\n]*$/ };
  };
  return autocompletion({ override: [source], icons: false });
}

/** The undefined steps as warnings under their text; a suggestion is one click (or Ctrl-. in the panel) away when editable. */
function undefinedStepDiagnostics(state: EditorState, help: GherkinHelp, editable: boolean): Diagnostic[] {
  const doc = state.doc;
  return help.undefinedSteps.flatMap((step) => {
    if (step.line < 1 || step.line > doc.lines) return [];
    const line = doc.line(step.line);
    if (step.column < 1 || step.column > line.length + 1) return [];
    const from = line.from + step.column - 1;
    const to = line.from + line.text.trimEnd().length;
    return [
      {
        from,
        to,
        severity: 'warning' as const,
        message: undefinedStepMessage(step),
        actions: editable
          ? step.suggestions.map((suggestion) => ({
              name: S.suggestionChoice(suggestion),
              apply: (view: EditorView, start: number, end: number) =>
                view.dispatch({ changes: { from: start, to: end, insert: suggestion } }),
            }))
          : [],
      },
    ];
  });
}

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  readOnly?: boolean;
  language: 'gherkin' | 'javascript';
  /** 1-based lines to mark as wrong (parser or syntax errors). */
  errorLines?: readonly number[];
  /** Accessible name of the editing area. */
  label: string;
  /** Gherkin only: step completion and undefined-step warnings. */
  help?: GherkinHelp | undefined;
  className?: string;
  testId?: string;
}

/** A CodeMirror 6 editor kept in sync with React state. */
export function CodeEditor({
  value,
  onChange,
  readOnly = false,
  language,
  errorLines: marks = [],
  label,
  help,
  className = '',
  testId,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const compartments = useRef({ readOnly: new Compartment(), marks: new Compartment(), completion: new Compartment() });

  // The editor is made once per language, with the props of that moment; later prop changes are
  // applied by the effects below (an effect event reads the props without depending on them).
  const createEditor = useEffectEvent((parent: HTMLElement) => {
    const { readOnly: ro, marks: mk, completion } = compartments.current;
    return new EditorView({
      parent,
      state: EditorState.create({
        doc: value,
        extensions: [
          base(language),
          ro.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
          mk.of(errorLines(marks)),
          completion.of([]),
          // Focusable also when read-only, so a long line can be scrolled with the keyboard.
          EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current?.(update.state.doc.toString());
          }),
        ],
      }),
    });
  });
  useEffect(() => {
    const editor = createEditor(host.current!);
    view.current = editor;
    return () => editor.destroy();
  }, [language]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: compartments.current.readOnly.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
    });
  }, [readOnly]);

  // Completion follows the choices (the project's steps arrive after the editor) without being
  // switched off and on: only whether there is completion at all reconfigures the editor.
  const choices = help?.choices;
  const options = useRef<readonly Completion[]>([]);
  options.current = useMemo(() => completionOptions(choices ?? []), [choices]);
  const completes = choices !== undefined && !readOnly;
  useEffect(() => {
    view.current?.dispatch({
      effects: compartments.current.completion.reconfigure(completes ? stepCompletion(() => options.current) : []),
    });
  }, [completes]);

  // Warnings belong to the text they were found in: once the text moves on they wait for the next answer.
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = help && help.forText === editor.state.doc.toString() ? undefinedStepDiagnostics(editor.state, help, !readOnly) : [];
    editor.dispatch(setDiagnostics(editor.state, current));
  }, [help, readOnly, value]);

  // A new array with the same lines is no change: markKey stands for the array's content.
  const markKey = marks.join(',');
  const applyMarks = useEffectEvent(() => {
    view.current?.dispatch({ effects: compartments.current.marks.reconfigure(errorLines(marks)) });
  });
  useEffect(() => applyMarks(), [markKey]);

  return <div ref={host} className={`overflow-hidden rounded-lg border border-slate-200 ${className}`} data-testid={testId} />;
}

/** Side-by-side diff of a step file before and after an edit (read-only). */
export function DiffView({ original, modified, testId }: { original: string; modified: string; testId?: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Read-only, yet focusable, so keyboard users can scroll a wide diff (and select text).
    const readOnly = [EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.contentAttributes.of({ tabindex: '0' })];
    const merge = new MergeView({
      a: { doc: original, extensions: [base('javascript'), readOnly, EditorView.contentAttributes.of({ 'aria-label': 'Before' })] },
      b: { doc: modified, extensions: [base('javascript'), readOnly, EditorView.contentAttributes.of({ 'aria-label': 'After' })] },
      parent: host.current!,
      highlightChanges: true,
      gutter: true,
    });
    return () => merge.destroy();
  }, [original, modified]);
  return <div ref={host} className="max-h-[55vh] overflow-auto rounded-lg border border-slate-200" data-testid={testId} />;
}

/**
 * Lines where the JavaScript parser found a syntax error (1-based, each once). The step files are
 * ES modules; Lezer's parser recovers from errors and marks them, so every broken spot is found.
 */
export function findSyntaxErrors(code: string): number[] {
  const tree = javascriptLanguage.parser.parse(code);
  const lines = new Set<number>();
  tree.iterate({
    enter(node) {
      if (node.type.isError) {
        lines.add(code.slice(0, node.from).split('\n').length);
      }
    },
  });
  return [...lines].sort((a, b) => a - b);
}
