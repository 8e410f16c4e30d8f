/** Sets the tab title to "<title> · Rehearse" while the screen is shown. */
export declare function useDocumentTitle(title: string | undefined): void;
