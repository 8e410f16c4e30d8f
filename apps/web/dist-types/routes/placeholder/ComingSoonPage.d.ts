/** Stands in for a spec screen that is not built yet, inside the real layout. */
export declare function ComingSoonPage({ screen }: {
    screen: string;
}): import("react").JSX.Element;
