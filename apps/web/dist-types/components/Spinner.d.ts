/** A centred spinner that screen readers announce as loading. */
export declare function FullPageSpinner({ label }: {
    label?: string;
}): import("react").JSX.Element;
