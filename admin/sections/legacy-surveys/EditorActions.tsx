import type { ReactNode } from 'react';
import { MoveButtons } from '../../components/MoveButtons';
import type { EditorContext } from './editorContext';

/**
 * The actions closing a question's or an option's editor: Save, move up or down, anything
 * `extra`, then Delete (`remove` asks first; the survey is read again once the part is gone).
 */
export function EditorActions({
  ctx,
  noun,
  moveLabel,
  index,
  count,
  busy,
  onSave,
  onMove,
  remove,
  extra,
}: {
  ctx: EditorContext;
  noun: 'Question' | 'Option';
  /** Names the part in the move buttons' labels, e.g. 'question 2'. */
  moveLabel: string;
  index: number;
  count: number;
  busy: boolean;
  onSave: () => void;
  onMove: (to: number) => void;
  remove: () => Promise<boolean>;
  extra?: ReactNode;
}) {
  return (
    <div className="editor-actions">
      <button type="button" className="btn btn-small btn-primary" disabled={busy} aria-busy={busy || undefined} onClick={onSave}>
        {`Save ${noun}`}
      </button>
      <MoveButtons label={moveLabel} index={index} count={count} busy={busy} onMove={onMove} />
      {extra}
      <button
        type="button"
        className="btn btn-small btn-danger"
        disabled={busy}
        onClick={async () => {
          if (await remove()) await ctx.refresh().catch(() => undefined);
        }}
      >
        {`Delete ${noun}`}
      </button>
    </div>
  );
}
