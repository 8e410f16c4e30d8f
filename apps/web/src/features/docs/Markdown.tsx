import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { plainText, type Block, type Inline } from './markdown';
import { resolveDocLink } from './catalogue';

const HEADING_LOOK = {
  1: 'text-3xl font-semibold tracking-tight text-slate-900',
  2: 'mt-10 border-b border-slate-200 pb-2 text-2xl font-semibold tracking-tight text-slate-900',
  3: 'mt-8 text-lg font-semibold text-slate-900',
  4: 'mt-6 text-base font-semibold text-slate-900',
  5: 'mt-4 text-sm font-semibold text-slate-900',
  6: 'mt-4 text-sm font-semibold text-slate-700',
} as const;

const LINK = 'focus-ring rounded font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:decoration-brand-700';

function inline(parts: readonly Inline[], key = ''): ReactNode[] {
  return parts.map((part, i) => {
    const k = `${key}${i}`;
    switch (part.kind) {
      case 'text':
        return part.text;
      case 'code':
        return (
          <code key={k} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800">
            {part.text}
          </code>
        );
      case 'strong':
        return <strong key={k}>{inline(part.children, `${k}.`)}</strong>;
      case 'em':
        return <em key={k}>{inline(part.children, `${k}.`)}</em>;
      case 'link': {
        const target = resolveDocLink(part.href);
        const children = inline(part.children, `${k}.`);
        if (!target) return <span key={k}>{children}</span>;
        if (target.kind === 'doc')
          return (
            <Link key={k} to={target.to} className={LINK}>
              {children}
            </Link>
          );
        return (
          <a
            key={k}
            href={target.href}
            className={LINK}
            {...(target.kind === 'external' ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
          >
            {children}
          </a>
        );
      }
    }
  });
}

function block(item: Block, key: string): ReactNode {
  switch (item.kind) {
    case 'heading': {
      const Tag = `h${item.level}` as const;
      return (
        <Tag key={key} id={item.id} className={`scroll-mt-6 ${HEADING_LOOK[item.level]}`}>
          {inline(item.content)}
        </Tag>
      );
    }
    case 'paragraph':
      return (
        <p key={key} className="leading-7 text-slate-700">
          {inline(item.content)}
        </p>
      );
    case 'code':
      return (
        <pre key={key} className="overflow-x-auto rounded-lg bg-slate-900 px-4 py-3 text-[13px] leading-6 text-slate-100" tabIndex={0}>
          <code>{item.text}</code>
        </pre>
      );
    case 'list': {
      const Tag = item.ordered ? 'ol' : 'ul';
      return (
        <Tag key={key} className={`flex flex-col gap-1.5 pl-6 leading-7 text-slate-700 ${item.ordered ? 'list-decimal' : 'list-disc'}`}>
          {item.items.map((entry, i) => (
            <li key={i}>
              {inline(entry.content)}
              {entry.children.length > 0 && (
                <div className="mt-1.5 flex flex-col gap-3">{entry.children.map((child, j) => block(child, `${key}.${i}.${j}`))}</div>
              )}
            </li>
          ))}
        </Tag>
      );
    }
    case 'table':
      return (
        <div
          key={key}
          className="overflow-x-auto rounded-lg border border-slate-200"
          tabIndex={0}
          role="region"
          aria-label={item.head.map(plainText).join(', ')}
        >
          <table className="w-full border-collapse text-left text-sm">
            <thead className="bg-slate-50 text-slate-900">
              <tr>
                {item.head.map((cell, i) => (
                  <th key={i} scope="col" className="border-b border-slate-200 px-3 py-2 font-semibold">
                    {inline(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {item.rows.map((row, r) => (
                <tr key={r} className="border-b border-slate-100 align-top last:border-0">
                  {row.map((cell, i) => (
                    <td key={i} className="px-3 py-2 text-slate-700">
                      {inline(cell)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'quote':
      return (
        <blockquote key={key} className="flex flex-col gap-3 border-l-4 border-slate-200 pl-4 text-slate-600">
          {item.blocks.map((child, i) => block(child, `${key}.${i}`))}
        </blockquote>
      );
    case 'rule':
      return <hr key={key} className="border-slate-200" />;
  }
}

/** A document read by `parseMarkdown`, as React elements: nothing in it is ever taken as HTML. */
export function Markdown({ blocks }: { blocks: readonly Block[] }) {
  return <div className="flex flex-col gap-4">{blocks.map((item, i) => block(item, String(i)))}</div>;
}
