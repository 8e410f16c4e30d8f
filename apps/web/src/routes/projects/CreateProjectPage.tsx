import { Messages, type Project } from '@rehearse/contract';
import { useNavigate, useSearchParams } from 'react-router';
import { Header } from '../../shell/Header';
import { CreateProjectForm } from '../../features/projects/components/CreateProjectForm';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { Strings } from '../../lib/strings';
import { snackbar } from '../../lib/notify';

/**
 * The create-project screen (`/projects/new`, spec 01 §2). `newUser=1` marks a first-time user:
 * no Cancel, a tooltip about the Getting Started video, and the flag is passed on to the
 * dashboard (`/{projectId}/dashboard?newUser=1`).
 */
export function CreateProjectPage() {
  useDocumentTitle(Strings.createProjectTitle);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const newUser = params.get('newUser') === '1' || params.get('newUser') === 'true';

  const created = (project: Project) => {
    snackbar.success(Messages.projectCreated);
    void navigate(`/${project.id}/dashboard${newUser ? '?newUser=1' : ''}`, { replace: true });
  };

  return (
    <div className="flex h-full flex-col">
      <Header />
      <main id="main" className="flex min-h-0 flex-1 justify-center overflow-y-auto p-8">
        <div className="w-full max-w-xl pt-8">
          <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{Strings.createProjectTitle}</h1>
          <p className="mt-2 text-slate-600">{newUser ? Strings.createProjectNewUserIntro : Strings.createProjectIntro}</p>
          <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <CreateProjectForm newUser={newUser} onCancel={() => void navigate('/')} onCreated={created} />
          </div>
        </div>
      </main>
    </div>
  );
}
