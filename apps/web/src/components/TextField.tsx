import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | null | undefined;
  /** A notice that does not block saving (shown in amber when there is no error). */
  warning?: string | null | undefined;
  hint?: ReactNode;
  /** Something right of the label (a tooltip icon). */
  labelExtra?: ReactNode;
}

/** A labelled input whose error, warning and hint are tied to it for screen readers. */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, warning, hint, labelExtra, className = '', ...props },
  ref,
) {
  const id = useId();
  const message = error ? 'error' : warning ? 'warning' : hint ? 'hint' : null;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <div className="flex items-center gap-1.5">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {label}
        </label>
        {labelExtra}
      </div>
      <input
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={message ? `${id}-${message}` : undefined}
        className={`h-10 rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-xs transition-colors outline-none placeholder:text-slate-500 focus:ring-2 disabled:bg-slate-100 disabled:text-slate-500 read-only:bg-slate-50 ${
          error
            ? 'border-red-400 focus:border-red-500 focus:ring-red-200'
            : 'border-slate-300 hover:border-slate-400 focus:border-brand-500 focus:ring-brand-200'
        }`}
        {...props}
      />
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-600" data-field-error>
          {error}
        </p>
      ) : warning ? (
        <p id={`${id}-warning`} className="text-xs text-amber-700" data-field-warning>
          {warning}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
});
