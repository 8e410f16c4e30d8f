/** The project dashboard; for now its heading, a greeting and the licence (full screen: spec 01 §2). */
export declare function DashboardPage(): import("react").JSX.Element;
