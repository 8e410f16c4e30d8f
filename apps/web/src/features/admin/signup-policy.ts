import type { SignupPolicy } from '@rehearse/contract';
import { Strings } from '../../lib/strings';

/** A sign-up policy in the Sign-up tab's words ('Invited people only', 'Anyone', …). */
export function signupPolicyText(policy: SignupPolicy): string {
  switch (policy.kind) {
    case 'open':
      return Strings.adminSignupOpen;
    case 'invite':
      return Strings.adminSignupInvite;
    case 'domains':
      return `${Strings.adminSignupDomains} (${policy.domains.join(', ')})`;
    case 'closed':
      return Strings.adminSignupClosed;
  }
}
