import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Strings } from '../lib/strings';
import { Button } from './Button';

/** Copies `text` to the clipboard and says so for two seconds. */
export function CopyButton({ text, label = Strings.copy, size = 'sm' }: { text: string; label?: string; size?: 'sm' | 'md' }) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast.error(Strings.copyFailed);
    }
  };

  return (
    <Button variant="secondary" size={size} onClick={() => void copy()} aria-label={copied ? Strings.copied : label}>
      {copied ? <Check aria-hidden="true" className="size-3.5 text-emerald-600" /> : <Copy aria-hidden="true" className="size-3.5" />}
      <span aria-hidden="true">{copied ? Strings.copied : Strings.copy}</span>
    </Button>
  );
}
