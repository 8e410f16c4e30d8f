/** The Rehearse mark and word; the word hides when `compact`. */
export declare function Logo({ compact }: {
    compact?: boolean;
}): import("react").JSX.Element;
