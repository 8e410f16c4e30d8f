/** The whole app: error boundary, server-state cache, routes and the app-wide overlays. */
export declare function App(): import("react").JSX.Element;
