import { BookOpen } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { Link, Navigate, NavLink, useLocation, useParams } from 'react-router';
import { StandaloneHeader } from '../../shell/StandaloneHeader';
import { DOCS, docBySlug } from '../../features/docs/catalogue';
import { Markdown } from '../../features/docs/Markdown';
import { parseMarkdown } from '../../features/docs/markdown';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { Strings } from '../../lib/strings';

/**
 * Documentation served by the product itself (`/docs/{slug}`, the sidebar's Documentation link):
 * the repository's documents for users and administrators, rendered in the app, readable without
 * signing in and without internet. Left, the documents and the current one's sections.
 */
export function DocsPage() {
  const { slug } = useParams();
  const doc = docBySlug(slug);
  const blocks = useMemo(() => (doc ? parseMarkdown(doc.source) : []), [doc]);
  const { hash } = useLocation();
  const main = useRef<HTMLElement>(null);
  useDocumentTitle(doc ? `${doc.title} · ${Strings.docsTitle}` : Strings.docsTitle);

  // A link to a section (#…) opens there, also when it comes from another document.
  useEffect(() => {
    if (!hash) {
      main.current?.scrollTo({ top: 0 });
      return;
    }
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash, slug]);

  if (!doc) return <Navigate to={`/docs/${DOCS[0]!.slug}`} replace />;
  const sections = blocks.filter((block) => block.kind === 'heading' && block.level === 2);

  return (
    <div className="flex h-full flex-col">
      <StandaloneHeader>
        <span className="flex items-center gap-1.5 text-sm font-semibold text-slate-700">
          <BookOpen aria-hidden="true" className="size-4 text-brand-600" />
          {Strings.docsTitle}
        </span>
        <Link
          to="/"
          className="focus-ring ml-auto rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
        >
          {Strings.docsBackToApp}
        </Link>
      </StandaloneHeader>
      <div className="flex min-h-0 flex-1">
        <nav
          aria-label={Strings.docsNavigation}
          className="w-64 shrink-0 overflow-y-auto border-r border-slate-200 bg-white px-4 py-6 xl:w-72"
        >
          <ul className="flex flex-col gap-1">
            {DOCS.map((entry) => (
              <li key={entry.slug}>
                <NavLink
                  to={`/docs/${entry.slug}`}
                  className={({ isActive }) =>
                    `focus-ring block rounded-lg px-3 py-2 text-sm ${
                      isActive ? 'bg-brand-50 font-semibold text-brand-800' : 'font-medium text-slate-700 hover:bg-slate-100'
                    }`
                  }
                >
                  {entry.title}
                  <span className="mt-0.5 block text-xs font-normal text-slate-600">{entry.summary}</span>
                </NavLink>
                {entry.slug === doc.slug && sections.length > 0 && (
                  <ul aria-label={Strings.docsOnThisPage} className="mt-1 mb-2 ml-3 flex flex-col border-l border-slate-200">
                    {sections.map((section) =>
                      section.kind === 'heading' ? (
                        <li key={section.id}>
                          <a
                            href={`#${section.id}`}
                            className="focus-ring -ml-px block truncate border-l border-transparent py-1 pl-3 text-xs text-slate-600 hover:border-slate-400 hover:text-slate-900"
                          >
                            {section.text}
                          </a>
                        </li>
                      ) : null,
                    )}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" ref={main} tabIndex={-1} className="min-w-0 flex-1 overflow-y-auto bg-white outline-none">
          <article className="mx-auto max-w-3xl px-8 py-10" aria-label={doc.title}>
            <p className="mb-6 text-xs text-slate-500">{Strings.docsSource(doc.file)}</p>
            <Markdown blocks={blocks} />
          </article>
        </main>
      </div>
    </div>
  );
}
