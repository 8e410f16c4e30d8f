import { useCallback, useEffect, useState } from 'react';
import { Layout } from '../lib/layout';
import { useWindowSize } from './useWindowSize';

/**
 * Sidebar open/collapsed state (spec 01 §2): open at first only on windows wider than 1445 px,
 * collapses by itself when the window gets narrower than 1260 px, and Ctrl+B (Cmd+B on macOS)
 * toggles it.
 */
export function useSidebar(): { open: boolean; toggle: () => void } {
  const { width } = useWindowSize();
  const [open, setOpen] = useState(() => window.innerWidth > Layout.sidebarOpenInitiallyAbove);
  const toggle = useCallback(() => setOpen((value) => !value), []);

  useEffect(() => {
    if (width < Layout.sidebarAutoCollapseBelow) setOpen(false);
  }, [width]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.shiftKey) return;
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'b') return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggle]);

  return { open, toggle };
}
