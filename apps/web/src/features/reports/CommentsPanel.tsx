import type { Comment } from '@rehearse/contract';
import { useState } from 'react';
import { Button } from '../../components/Button';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { Strings } from '../../lib/strings';
import { useCommentMutations } from './queries';

const fieldClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-xs outline-none hover:border-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200';

/**
 * Comments on a scenario execution: anyone in the project adds one; only the author edits or
 * deletes theirs (spec 02 §2). Publish stays disabled while the text is empty or unchanged (§5).
 */
export function CommentsPanel({
  testCaseId,
  comments,
  invalidate,
}: {
  testCaseId: string;
  comments: Comment[];
  invalidate: readonly unknown[];
}) {
  const { add, update, remove } = useCommentMutations(invalidate);
  const [draft, setDraft] = useState('');
  const [editing, setEditing] = useState<{ comment: Comment; text: string } | null>(null);
  const [deleting, setDeleting] = useState<Comment | null>(null);
  const failure = add.error ?? update.error;

  return (
    <section aria-labelledby="comments-title" className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="comments-title" className="text-sm font-semibold text-slate-900">
        {Strings.commentsTitle} <span className="font-normal text-slate-500">({comments.length})</span>
      </h2>
      {comments.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">{Strings.commentsEmpty}</p>
      ) : (
        <ul className="mt-3 flex flex-col divide-y divide-slate-100">
          {comments.map((comment) => {
            const at = formatDateTime(comment.updatedAt);
            const isEditing = editing?.comment._id === comment._id;
            return (
              <li key={comment._id} data-testid="comment" className="py-3">
                <p className="text-xs text-slate-500">
                  <span className="font-semibold text-slate-800">{comment.username}</span> · {at.date} {at.time}
                </p>
                {isEditing ? (
                  <div className="mt-2 flex flex-col gap-2">
                    <textarea
                      aria-label={Strings.commentEditLabel}
                      className={fieldClass}
                      rows={2}
                      value={editing.text}
                      onChange={(event) => setEditing({ comment, text: event.target.value })}
                    />
                    <div className="flex gap-2">
                      <Button
                        size="sm"
                        disabled={!editing.text.trim() || editing.text.trim() === comment.content || update.isPending}
                        onClick={() => update.mutate({ comment, content: editing.text.trim() }, { onSuccess: () => setEditing(null) })}
                      >
                        {Strings.commentSave}
                      </Button>
                      <Button size="sm" variant="ghost" onClick={() => setEditing(null)}>
                        {Strings.commentCancel}
                      </Button>
                    </div>
                  </div>
                ) : (
                  <p className="mt-1 text-sm whitespace-pre-wrap text-slate-800">{comment.content}</p>
                )}
                {comment.mine && !isEditing && (
                  <div className="mt-1 flex gap-1">
                    <Button size="sm" variant="ghost" onClick={() => setEditing({ comment, text: comment.content })}>
                      {Strings.commentEdit}
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setDeleting(comment)}>
                      {Strings.commentDelete}
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <form
        className="mt-3 flex items-start gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate({ testCaseId, content: draft.trim() }, { onSuccess: () => setDraft('') });
        }}
      >
        <textarea
          aria-label={Strings.commentLabel}
          placeholder={Strings.commentLabel}
          rows={2}
          className={fieldClass}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <Button type="submit" disabled={!draft.trim() || add.isPending}>
          {Strings.commentPublish}
        </Button>
      </form>
      {failure && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {Strings.commentFailed} {errorMessage(failure)}
        </p>
      )}
      <ConfirmDeleteDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        what={Strings.commentWhat}
        name={deleting?.content ?? ''}
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting);
        }}
      />
    </section>
  );
}
