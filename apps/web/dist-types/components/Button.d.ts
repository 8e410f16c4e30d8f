import type { ButtonHTMLAttributes } from 'react';
type Variant = 'primary' | 'secondary' | 'ghost';
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
    variant?: Variant;
}
/** The app's button: three looks, one focus ring. */
export declare function Button({ variant, className, type, ...props }: ButtonProps): import("react").JSX.Element;
export {};
