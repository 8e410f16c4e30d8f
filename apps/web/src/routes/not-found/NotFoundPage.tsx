import { ArrowLeft } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/Button';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { Strings } from '../../lib/strings';

/** The not-found catch-all (spec 01 §2); GO BACK goes to the root. */
export function NotFoundPage() {
  const navigate = useNavigate();
  useDocumentTitle(Strings.notFoundTitle);
  return (
    <main className="flex h-full flex-col items-center justify-center gap-4 bg-slate-50 p-8 text-center">
      <p aria-hidden="true" className="bg-gradient-to-b from-brand-600 to-brand-200 bg-clip-text text-8xl font-bold text-transparent">
        404
      </p>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{Strings.notFoundTitle}</h1>
      <p className="max-w-md text-slate-600">{Strings.notFoundText}</p>
      <Button onClick={() => void navigate('/')} className="mt-4 tracking-wide">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {Strings.notFoundGoBack}
      </Button>
    </main>
  );
}
