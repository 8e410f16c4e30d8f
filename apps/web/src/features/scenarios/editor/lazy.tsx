import { lazy, Suspense, type ComponentProps } from 'react';
import { FeatureStrings as S } from '../strings';

/** CodeMirror lives in its own chunk (editor/codemirror.tsx), loaded the first time an editor shows. */
const load = () => import('./codemirror');
const LazyCodeEditor = lazy(async () => ({ default: (await load()).CodeEditor }));
const LazyDiffView = lazy(async () => ({ default: (await load()).DiffView }));

function EditorLoading() {
  return (
    <div role="status" className="flex h-40 items-center justify-center rounded-lg border border-slate-200 text-sm text-slate-500">
      {S.editorLoading}
    </div>
  );
}

export function CodeEditor(props: ComponentProps<typeof LazyCodeEditor>) {
  return (
    <Suspense fallback={<EditorLoading />}>
      <LazyCodeEditor {...props} />
    </Suspense>
  );
}

export function DiffView(props: ComponentProps<typeof LazyDiffView>) {
  return (
    <Suspense fallback={<EditorLoading />}>
      <LazyDiffView {...props} />
    </Suspense>
  );
}

/** The syntax check of the step code editor, from the same chunk. */
export async function findSyntaxErrors(code: string): Promise<number[]> {
  return (await load()).findSyntaxErrors(code);
}
