import { Component, type ErrorInfo, type ReactNode } from 'react';
/** The fatal-error screen of spec 01 §2; a plain button so it works whatever else broke. */
export declare function FatalErrorScreen(): import("react").JSX.Element;
/** Catches any render error below it and shows the fatal-error screen instead of a blank page. */
export declare class FatalErrorBoundary extends Component<{
    children: ReactNode;
}, {
    failed: boolean;
}> {
    state: {
        failed: boolean;
    };
    static getDerivedStateFromError(): {
        failed: boolean;
    };
    componentDidCatch(error: Error, info: ErrorInfo): void;
    render(): ReactNode;
}
