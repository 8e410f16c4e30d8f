import { useMemo, useState } from 'react';
import { Strings } from '../../lib/strings';
import { changedRange, diffFileLines, foldDiff, type DiffLine } from './diff-rows';

/** Unified diff of a file before and after a fix (removed red, added green), opened at the change. */
export function DiffView({ before, after, label }: { before: string; after: string; label: string }) {
  const lines = useMemo(() => diffFileLines(before, after), [before, after]);
  const rows = useMemo(() => foldDiff(lines), [lines]);
  const range = useMemo(() => changedRange(lines), [lines]);
  const total = after.replace(/\n$/, '').split('\n').length;
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  const look = { same: 'text-slate-700', added: 'bg-emerald-50 text-emerald-900', removed: 'bg-red-50 text-red-900' } as const;
  const sign = { same: ' ', added: '+', removed: '-' } as const;
  const row = (line: DiffLine, key: string) => (
    <tr key={key} data-diff={line.kind} className={look[line.kind]}>
      {/* slate-600: line numbers keep 4.5:1 contrast on the red and green rows too. */}
      <td className="w-10 px-2 text-right text-slate-600 select-none">{line.before ?? ''}</td>
      <td className="w-10 px-2 text-right text-slate-600 select-none">{line.after ?? ''}</td>
      <td className="w-4 select-none">{sign[line.kind]}</td>
      <td className="pr-3 whitespace-pre">{line.text}</td>
    </tr>
  );
  return (
    <div className="flex flex-col gap-2">
      {range && (
        <p className="text-sm text-slate-600" data-testid="diff-range">
          {Strings.reviewChangedLines(range.from, range.to, total)}
        </p>
      )}
      <div className="max-h-[60vh] overflow-auto rounded-lg border border-slate-200" role="region" aria-label={label} tabIndex={0}>
        <table className="w-full border-collapse font-mono text-xs">
          <tbody>
            {rows.flatMap((part, p) =>
              part.kind === 'lines' || opened.has(part.id)
                ? part.lines.map((line, i) => row(line, `${p}-${i}`))
                : [
                    <tr key={`fold-${part.id}`} data-diff="fold" className="bg-slate-50">
                      <td colSpan={4} className="px-2 py-0.5">
                        <button
                          type="button"
                          onClick={() => setOpened((all) => new Set(all).add(part.id))}
                          className="focus-ring w-full rounded py-1 text-left font-sans text-xs font-medium text-brand-700 hover:underline"
                        >
                          {Strings.reviewUnchangedLines(part.lines.length)}
                        </button>
                      </td>
                    </tr>,
                  ],
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
