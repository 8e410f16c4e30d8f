import { useEffect } from 'react';
import { Strings } from '../lib/strings';

/** Sets the tab title to "<title> · Rehearse" while the screen is shown. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${Strings.appName}` : Strings.appName;
  }, [title]);
}
