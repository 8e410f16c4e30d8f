/** Layout constants of spec 01 §9. */
export const Layout = {
  sidebarOpenWidth: 300,
  sidebarCollapsedWidth: 83,
  /** Below this window width the sidebar collapses by itself. */
  sidebarAutoCollapseBelow: 1260,
  /** Above this window width the sidebar starts open. */
  sidebarOpenInitiallyAbove: 1445,
  minWindowWidth: 1024,
  minWindowHeight: 660,
} as const;
