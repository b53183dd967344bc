/** The survey's pages: pick one to edit, add, reorder and delete. */
import { FormErrors } from '../../components/form/FormErrors';
import { BusyButton } from '../../components/form/BusyButton';
import { MoveButtons } from '../../components/MoveButtons';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { useAction } from '../../hooks/useAction';
import { changeSurvey, type EditorContext } from './editorContext';
import { ADD_PAGE_FAILED, SAVE_FAILED, SURVEY_LABELS as L } from './values';

export function PagesPanel({ ctx, selected, onSelect }: { ctx: EditorContext; selected: string; onSelect: (id: string) => void }) {
  const addPage = useAction();
  const move = useAction();
  const remove = useDeleteWithConfirm(ctx.api.removePage, 'Page');

  const add = () =>
    addPage.run(async () => {
      const page = await ctx.api.addPage(ctx.survey.id);
      await ctx.refresh();
      onSelect(page.id);
    }, ADD_PAGE_FAILED);
  const reorder = (id: string, to: number) => changeSurvey(ctx, move.run, SAVE_FAILED)(() => ctx.api.updatePage(id, { displayOrder: to }));

  return (
    <nav className="panel pages-panel" aria-label="Pages" aria-busy={addPage.busy || move.busy || undefined}>
      <h2 className="section-title">{L.pages}</h2>
      <FormErrors message={addPage.error ?? move.error} />
      <ol className="builder-page-list">
        {ctx.pages.map((page, i) => (
          <li key={page.id} className={page.id === selected ? 'selected' : undefined}>
            <button type="button" className="btn-link" aria-pressed={page.id === selected} onClick={() => onSelect(page.id)}>
              {page.title}
            </button>
            <span className="page-actions">
              <MoveButtons label={`page ${page.title}`} index={i} count={ctx.pages.length} busy={move.busy} onMove={(to) => reorder(page.id, to)} />
              <button
                type="button"
                className="btn btn-small btn-danger"
                aria-label={`Delete page ${page.title}`}
                onClick={async () => {
                  if (await remove(page.id)) await ctx.refresh().catch(() => undefined);
                }}
              >
                ✕
              </button>
            </span>
          </li>
        ))}
      </ol>
      <BusyButton className="btn btn-secondary" busy={addPage.busy} onClick={add}>
        Add Page
      </BusyButton>
    </nav>
  );
}
