export interface WindowSize {
    width: number;
    height: number;
}
/** The window's inner size, updated on resize. */
export declare function useWindowSize(): WindowSize;
