/** A badge count as spec 01 §9 shows it: 99+ above 99. */
export declare function badgeText(count: number): string;
/**
 * The project sidebar: 300 px open, 83 px collapsed (labels then become tooltips but stay the
 * links' accessible names).
 */
export declare function Sidebar({ projectId, open, onToggle, codeReviewCount, }: {
    projectId: string;
    open: boolean;
    onToggle: () => void;
    codeReviewCount?: number;
}): import("react").JSX.Element;
