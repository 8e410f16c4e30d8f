/** Layout constants of spec 01 §9. */
export declare const Layout: {
    readonly sidebarOpenWidth: 300;
    readonly sidebarCollapsedWidth: 83;
    /** Below this window width the sidebar collapses by itself. */
    readonly sidebarAutoCollapseBelow: 1260;
    /** Above this window width the sidebar starts open. */
    readonly sidebarOpenInitiallyAbove: 1445;
    readonly minWindowWidth: 1024;
    readonly minWindowHeight: 660;
};
