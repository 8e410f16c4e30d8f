/**
 * Where the app's outside links point. Each can be set at build time with a Vite variable
 * (`VITE_DOCS_URL=... npm run build --workspace apps/web`), so a company running Rehearse can send
 * its users to its own help desk and sales team. The defaults are the Rehearse project's own
 * (documentation: this server's own pages).
 */
function fromEnv(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

const env = import.meta.env as Record<string, unknown>;

export const Links = {
  /**
   * Documentation (sidebar footer, opens in a new tab): the docs this server serves itself
   * (`/docs`), reachable from a self-hosted install without internet.
   */
  docs: fromEnv(env.VITE_DOCS_URL, '/docs'),
  /** Contact support (sidebar footer, private-repository page). */
  support: fromEnv(env.VITE_SUPPORT_URL, 'mailto:support@rehearse.dev'),
  /**
   * Sales: a `mailto:` address, or an http(s) form that takes the prefilled fields as query
   * parameters (firstname, lastname, email, company, project_id, message).
   */
  sales: fromEnv(env.VITE_SALES_URL, 'mailto:sales@rehearse.dev'),
} as const;

/** The demo shop served by the Rehearse server itself (spec 01 §5: "Or use the demo app"). */
export function demoShopUrl(): string {
  return `${window.location.origin}/demo-shop/`;
}
