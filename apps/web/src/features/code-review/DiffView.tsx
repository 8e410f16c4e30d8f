import { diffLines } from 'diff';
import { useMemo } from 'react';

interface Line {
  kind: 'same' | 'added' | 'removed';
  text: string;
  before: number | null;
  after: number | null;
}

/** Line-by-line unified diff of a file before and after a fix (removed red, added green). */
export function DiffView({ before, after, label }: { before: string; after: string; label: string }) {
  const lines = useMemo(() => {
    const out: Line[] = [];
    let b = 1;
    let a = 1;
    for (const part of diffLines(before, after)) {
      const texts = part.value.replace(/\n$/, '').split('\n');
      for (const text of texts) {
        if (part.added) out.push({ kind: 'added', text, before: null, after: a++ });
        else if (part.removed) out.push({ kind: 'removed', text, before: b++, after: null });
        else out.push({ kind: 'same', text, before: b++, after: a++ });
      }
    }
    return out;
  }, [before, after]);
  const look = { same: 'text-slate-700', added: 'bg-emerald-50 text-emerald-900', removed: 'bg-red-50 text-red-900' } as const;
  const sign = { same: ' ', added: '+', removed: '-' } as const;
  return (
    <div className="max-h-[60vh] overflow-auto rounded-lg border border-slate-200" role="region" aria-label={label} tabIndex={0}>
      <table className="w-full border-collapse font-mono text-xs">
        <tbody>
          {lines.map((line, i) => (
            <tr key={i} data-diff={line.kind} className={look[line.kind]}>
              {/* slate-600: line numbers keep 4.5:1 contrast on the red and green rows too. */}
              <td className="w-10 px-2 text-right text-slate-600 select-none">{line.before ?? ''}</td>
              <td className="w-10 px-2 text-right text-slate-600 select-none">{line.after ?? ''}</td>
              <td className="w-4 select-none">{sign[line.kind]}</td>
              <td className="pr-3 whitespace-pre">{line.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
