import { type ReactNode } from 'react';
export interface MenuProps {
    /** Accessible name of the button that opens the menu. */
    label: string;
    /** What the button shows. */
    button: ReactNode;
    buttonClassName?: string;
    /** Which edge of the button the menu lines up with. */
    align?: 'start' | 'end';
    menuClassName?: string;
    children: ReactNode;
}
/**
 * A menu button (WAI-ARIA menu pattern): Enter, Space or ArrowDown open it, arrows and Home/End
 * move between items, Escape closes it and gives focus back to the button, a click outside
 * closes it.
 */
export declare function Menu({ label, button, buttonClassName, align, menuClassName, children }: MenuProps): import("react").JSX.Element;
/** An action in a menu; choosing it closes the menu first. */
export declare function MenuItem({ onSelect, children, title }: {
    onSelect: () => void;
    children: ReactNode;
    title?: string;
}): import("react").JSX.Element;
/** One choice of a single-choice menu (the project selector). */
export declare function MenuItemRadio({ checked, onSelect, children, title, }: {
    checked: boolean;
    onSelect: () => void;
    children: ReactNode;
    title?: string;
}): import("react").JSX.Element;
/** A non-interactive block at the top of a menu (who is signed in). */
export declare function MenuHeader({ children }: {
    children: ReactNode;
}): import("react").JSX.Element;
