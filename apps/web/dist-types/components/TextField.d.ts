import { type InputHTMLAttributes } from 'react';
export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
    label: string;
    error?: string | undefined;
    hint?: string;
}
/** A labelled input whose error and hint are tied to it for screen readers. */
export declare function TextField({ label, error, hint, className, ...props }: TextFieldProps): import("react").JSX.Element;
