import deploy from '../../../../../docs/deploy.md?raw';
import security from '../../../../../docs/security.md?raw';
import runner from '../../../../../packages/runner/README.md?raw';

/** One document the product serves at `/docs/{slug}`. */
export interface Doc {
  slug: string;
  title: string;
  summary: string;
  /** Where it lives in the repository (its links to other served files are followed by this name). */
  file: string;
  source: string;
}

/**
 * The repository's documents a user of this server needs, built into the web app so a self-hosted
 * install without internet has them (issue 47). Picked: the runner's README (writing steps,
 * locators, test data, the `rehearse` CLI, CI and plain cucumber-js: what a tester uses every
 * day), deploy.md (running and scaling the server: what its administrator needs) and security.md
 * (what the job sandbox and sign-in defend against: what an administrator is asked about).
 * Left out: architecture.md, a map of this repository's source for people who change Rehearse.
 */
export const DOCS: readonly Doc[] = [
  {
    slug: 'tests',
    title: 'Writing and running tests',
    summary: 'Steps and locators, test data, the rehearse CLI, CI, plain cucumber-js and the report.',
    file: 'packages/runner/README.md',
    source: runner,
  },
  {
    slug: 'deploy',
    title: 'Deploying Rehearse',
    summary: 'Roles, metrics, the image, compose, Kubernetes and sizing.',
    file: 'docs/deploy.md',
    source: deploy,
  },
  {
    slug: 'security',
    title: 'Security',
    summary: 'Where tenant code runs, what the sandbox defends against, egress, traces and sign-in.',
    file: 'docs/security.md',
    source: security,
  },
];

export const docBySlug = (slug: string | undefined): Doc | undefined => DOCS.find((doc) => doc.slug === slug);

/** Where a link of a served document goes: in the page, to another served document, outside, or nowhere (a file this server does not serve). */
export type DocLink = { kind: 'anchor'; href: string } | { kind: 'doc'; to: string } | { kind: 'external'; href: string } | null;

export function resolveDocLink(href: string): DocLink {
  if (href.startsWith('#')) return { kind: 'anchor', href };
  if (/^(https?:|mailto:)/i.test(href)) return { kind: 'external', href };
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return null;
  const [path = '', hash] = href.split('#');
  const target = DOCS.find(
    (doc) => path !== '' && (doc.file === path.replace(/^(\.\.?\/)+/, '') || doc.file.endsWith(`/${path.replace(/^(\.\.?\/)+/, '')}`)),
  );
  return target ? { kind: 'doc', to: `/docs/${target.slug}${hash ? `#${hash}` : ''}` } : null;
}
