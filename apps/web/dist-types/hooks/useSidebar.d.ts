/**
 * Sidebar open/collapsed state (spec 01 §2): open at first only on windows wider than 1445 px,
 * collapses by itself when the window gets narrower than 1260 px, and Ctrl+B (Cmd+B on macOS)
 * toggles it.
 */
export declare function useSidebar(): {
    open: boolean;
    toggle: () => void;
};
