import { Links } from '../../lib/links';
import { Strings } from '../../lib/strings';

export interface SalesRequest {
  firstname: string;
  lastname: string;
  email: string;
  company: string;
  projectId: string;
  projectName: string;
  message: string;
}

/**
 * Where the contact-sales form sends the user. Decision (spec 01 §2 "contact-sales form,
 * embedded, prefilled"): we do not embed a third-party form or post the details anywhere
 * ourselves. The form is ours, prefilled with the user's name, email, company and the project
 * id; sending opens the configured sales address — a `mailto:` link with the fields in the body,
 * or, when VITE_SALES_URL is an http(s) form, that form with the fields as query parameters
 * (spec 02 §7: "a sales form link with prefilled query parameters").
 */
export function salesLink(request: SalesRequest, target: string = Links.sales): string {
  if (target.startsWith('mailto:')) {
    const body = [
      request.message,
      '',
      `${Strings.contactSalesName}: ${`${request.firstname} ${request.lastname}`.trim()}`,
      `${Strings.contactSalesEmail}: ${request.email}`,
      `${Strings.contactSalesCompany}: ${request.company}`,
      `${Strings.contactSalesProject}: ${request.projectId} (${request.projectName})`,
    ].join('\n');
    const query = new URLSearchParams({ subject: Strings.contactSalesSubject(request.projectName), body });
    // Mail clients expect %20, not '+', for spaces.
    return `${target}?${query.toString().replace(/\+/g, '%20')}`;
  }
  const url = new URL(target);
  url.searchParams.set('firstname', request.firstname);
  url.searchParams.set('lastname', request.lastname);
  url.searchParams.set('email', request.email);
  url.searchParams.set('company', request.company);
  url.searchParams.set('project_id', request.projectId);
  url.searchParams.set('message', request.message);
  return url.toString();
}
