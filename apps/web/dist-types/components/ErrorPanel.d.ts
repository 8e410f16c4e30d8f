/** A failed load inside a screen: what failed, the server's words, and a retry when one helps. */
export declare function ErrorPanel({ title, detail, onRetry }: {
    title: string;
    detail?: string;
    onRetry?: () => void;
}): import("react").JSX.Element;
