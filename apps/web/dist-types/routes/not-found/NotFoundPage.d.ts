/** The not-found catch-all (spec 01 §2); GO BACK goes to the root. */
export declare function NotFoundPage(): import("react").JSX.Element;
