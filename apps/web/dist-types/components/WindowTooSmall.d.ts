/** Covers the app when the window is under 1024 × 660 (spec 01 §2, §9). */
export declare function WindowTooSmall(): import("react").JSX.Element | null;
