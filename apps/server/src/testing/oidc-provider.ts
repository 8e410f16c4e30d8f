import Provider from 'oidc-provider';
import { freePort } from './ports.js';

/** Someone the test identity provider knows, by the login typed on its development sign-in page. */
export interface TestPerson {
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
}

export const TEST_OIDC_CLIENT = { id: 'rehearse', secret: 'a-long-client-secret-for-tests' };

/**
 * A real OpenID Connect provider on loopback (`oidc-provider`, with its development sign-in and
 * consent pages: any password signs in as the login typed), with one confidential client whose
 * only redirect is Rehearse's callback at `publicUrl`.
 */
export async function startOidcProvider(publicUrl: string, people: Record<string, TestPerson>): Promise<{ issuer: string; close(): void }> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_OIDC_CLIENT.id,
        client_secret: TEST_OIDC_CLIENT.secret,
        redirect_uris: [`${publicUrl}/api/auth/sso/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    // The ID token carries the claims itself, so the callback needs no userinfo call.
    conformIdTokenClaims: false,
    findAccount: (_context, id) => {
      const person = people[id];
      return person ? { accountId: id, claims: () => ({ sub: id, ...person }) } : undefined;
    },
  });
  const server = provider.listen(port);
  return { issuer, close: () => server.close() };
}
