/**
 * The version's pages in a side list: select, add, copy, reorder (drag, or the arrow buttons for
 * the keyboard) and delete, each recorded for undo. A page options jump to is not deleted: the
 * server's message says which.
 */
import { useState, type ComponentProps } from 'react';
import { BusyButton } from '../../components/form/BusyButton';
import { DELETE_CONFIRMATION, useConfirm } from '../../components/confirm/ConfirmProvider';
import { FormErrors } from '../../components/form/FormErrors';
import { MoveButtons } from '../../components/MoveButtons';
import type { PageWithQuestions } from '@core/api/surveys';
import type { EditorContext } from './context';
import { useAction } from '../../hooks/useAction';
import { duplicateValues } from './duplicate';
import { useDropTarget } from './Sortable';
import { ADD_PAGE_FAILED, DELETE_PAGE_FAILED, SAVE_FAILED } from './values';
import './surveys.css';

export function PagesPanel({ ctx, selected, onSelect }: { ctx: EditorContext; selected: string; onSelect: (id: string) => void }) {
  const action = useAction();
  const confirm = useConfirm();
  const [dragged, setDragged] = useState<string | null>(null);
  const pages = ctx.detail.pages;

  /**
   * Makes `source` again as a new page at `displayOrder` (1-based): title, translations and
   * every question. `restore` is for bringing a deleted page back: the history then follows the
   * page and its questions to their new ids.
   */
  const rebuild = async (source: PageWithQuestions, title: string, displayOrder: number, restore: boolean) => {
    const { api, history } = ctx;
    const page = await api.addPage(ctx.detail.form.id, title.slice(0, 255));
    await api.updatePage(page.id, { translations: source.translations, displayOrder });
    for (const field of source.fields) {
      const added = await api.addField(page.id);
      await api.updateField(added.id, duplicateValues(field));
      if (restore) history?.alias(history.resolve(field.id), added.id);
    }
    if (restore) history?.aliasPage(history.resolvePage(source.id), page.id);
    return page;
  };
  /** A page added (new or a copy): undone by deleting it, redone by making it again. */
  const recordAdded = (id: string, label: string, again: () => Promise<{ id: string }>) => {
    const { history, api } = ctx;
    history?.record({
      label,
      undo: () => api.removePage(history.resolvePage(id)),
      redo: async () => history.aliasPage(history.resolvePage(id), (await again()).id),
    });
  };

  const add = () =>
    action.run(async () => {
      const page = await ctx.api.addPage(ctx.detail.form.id);
      recordAdded(page.id, 'new page', () => ctx.api.addPage(ctx.detail.form.id));
      await ctx.refresh();
      onSelect(page.id);
    }, ADD_PAGE_FAILED);
  // A copy of the page right after it, with every question, option and translation.
  const duplicate = (index: number) =>
    action.run(async () => {
      const source = pages[index]!;
      const copy = await rebuild(source, `${source.title} (copy)`, index + 2, false);
      recordAdded(copy.id, 'copy of a page', () => rebuild(source, `${source.title} (copy)`, index + 2, false));
      await ctx.refresh();
      onSelect(copy.id);
    }, ADD_PAGE_FAILED);
  const move = (id: string, to: number) =>
    action.run(async () => {
      const from = pages.findIndex((p) => p.id === id) + 1;
      await ctx.api.updatePage(id, { displayOrder: to });
      const { history, api } = ctx;
      history?.record({
        label: `move of page ${from}`,
        undo: () => api.updatePage(history.resolvePage(id), { displayOrder: from }).then(() => undefined),
        redo: () => api.updatePage(history.resolvePage(id), { displayOrder: to }).then(() => undefined),
      });
      await ctx.refresh();
    }, SAVE_FAILED);
  const remove = async (id: string, title: string) => {
    if (!(await confirm({ title: `Delete page ${title}`, message: DELETE_CONFIRMATION, danger: true }))) return;
    const index = pages.findIndex((p) => p.id === id);
    const source = pages[index]!;
    await action.run(async () => {
      await ctx.api.removePage(id);
      const { history, api } = ctx;
      history?.record({
        label: `delete of page ${index + 1}`,
        undo: () => rebuild(source, source.title, index + 1, true).then(() => undefined),
        redo: () => api.removePage(history.resolvePage(id)),
      });
      await ctx.refresh();
      if (id === selected) onSelect(pages.find((p) => p.id !== id)?.id ?? '');
    }, DELETE_PAGE_FAILED);
  };

  return (
    <nav className="panel pages-panel" aria-label="Pages" aria-busy={action.busy || undefined}>
      <h2 className="section-title">Pages</h2>
      <FormErrors message={action.error} />
      <ol className="builder-page-list" aria-label="Page order">
        {pages.map((page, i) => (
          <PageItem
            key={page.id}
            id={page.id}
            name={`page ${page.title}`}
            // A question already on the selected page has nowhere to move there.
            dropDisabled={ctx.frozen || page.id === selected}
            className={page.id === selected ? 'selected' : undefined}
            draggable={!ctx.frozen}
            onDragStart={(e) => {
              setDragged(page.id);
              // Firefox starts a drag only with data set.
              if (e.dataTransfer) {
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', page.id);
              }
            }}
            onDragOver={(e) => {
              if (dragged) e.preventDefault();
            }}
            onDrop={(e) => {
              e.preventDefault();
              const id = dragged ?? e.dataTransfer?.getData('text/plain');
              setDragged(null);
              if (id && id !== page.id) void move(id, i + 1);
            }}
            onDragEnd={() => setDragged(null)}
          >
            <button type="button" className="btn-link" aria-pressed={page.id === selected} onClick={() => onSelect(page.id)}>
              {page.title}
            </button>
            {!ctx.frozen && (
              <span className="page-actions">
                <MoveButtons label={`page ${page.title}`} index={i} count={pages.length} busy={action.busy} onMove={(to) => move(page.id, to)} />
                <button
                  type="button"
                  className="btn btn-small btn-secondary"
                  aria-label={`Duplicate page ${page.title}`}
                  disabled={action.busy}
                  onClick={() => duplicate(i)}
                >
                  ⧉
                </button>
                <button
                  type="button"
                  className="btn btn-small btn-danger"
                  aria-label={`Delete page ${page.title}`}
                  disabled={action.busy}
                  onClick={() => remove(page.id, page.title)}
                >
                  ✕
                </button>
              </span>
            )}
          </PageItem>
        ))}
      </ol>
      {!ctx.frozen && (
        <BusyButton className="btn btn-secondary" busy={action.busy} onClick={add}>
          Add Page
        </BusyButton>
      )}
    </nav>
  );
}

/** A page in the list, which a question dragged from the page being edited may be dropped on. */
function PageItem({ id, name, dropDisabled, className, ...props }: ComponentProps<'li'> & { id: string; name: string; dropDisabled: boolean }) {
  const target = useDropTarget(id, name, dropDisabled);
  return <li ref={target.ref} className={[className, target.isOver ? 'drop-over' : ''].filter(Boolean).join(' ') || undefined} {...props} />;
}
