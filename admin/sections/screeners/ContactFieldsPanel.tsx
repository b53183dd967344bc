/**
 * A screener's contact fields in their order (weight). Staff who may edit reorder them by
 * dragging a row or with its Up and Down buttons (keyboard friendly), attach another field or
 * remove one; each change saves the whole list at once.
 */
import { useEffect, useState, type DragEvent } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '@core/api/client';
import { contactFieldsApi } from '@core/api/contactFields';
import { screenersApi } from '@core/api/screeners';
import type { ContactFieldScreener } from '@core/model/contactFieldScreener';
import { MoveButtons } from '../../components/MoveButtons';
import { Select } from '../../components/form/Select';
import { SAVE_FAILED } from '../../components/form/useEntityForm';
import { useAsync } from '../../hooks/useAsync';
import { useOptions } from '../../hooks/useOptions';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { ErrorText } from '../../components/form/FormErrors';
import './screeners.css';

type Item = Pick<ContactFieldScreener, 'contactFieldId' | 'label' | 'name'>;

export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const out = [...list];
  const [moved] = out.splice(from, 1);
  out.splice(to, 0, moved as T);
  return out;
}

export function ContactFieldsPanel({ screenerId, canEdit }: { screenerId: string; canEdit: boolean }) {
  const api = useApi(screenersApi);
  const fieldsApi = useApi(contactFieldsApi);
  const loaded = useAsync(() => api.contactFields(screenerId), [api, screenerId]);
  const [items, setItems] = useState<Item[] | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragged, setDragged] = useState<number | null>(null);
  const [toAttach, setToAttach] = useState('');
  const allFields = useOptions(
    async () => (canEdit ? (await fieldsApi.list({ limit: 1000, sort: 'label' })).items.map((f) => ({ value: f.id, label: `${f.label} (${f.name})` })) : []),
    [fieldsApi, canEdit],
    'Could not load the contact fields.',
  );

  useEffect(() => {
    if (loaded.data) setItems(loaded.data.items.map(({ contactFieldId, label, name }) => ({ contactFieldId, label, name })));
  }, [loaded.data]);

  const save = async (next: Item[], done: string) => {
    if (busy) return;
    const previous = items;
    setItems(next);
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      const saved = await api.setContactFields(
        screenerId,
        next.map((i) => i.contactFieldId),
      );
      setItems(saved.map(({ contactFieldId, label, name }) => ({ contactFieldId, label, name })));
      setStatus(done);
    } catch (e) {
      setItems(previous);
      setError(e instanceof ApiError ? e.message : SAVE_FAILED);
    } finally {
      setBusy(false);
    }
  };

  const list = items ?? [];
  const move = (from: number, to: number) => {
    const item = list[from];
    if (item && to >= 0 && to < list.length) void save(moveItem(list, from, to), `Moved ${item.label} to position ${to + 1}.`);
  };
  const onDrop = (event: DragEvent, to: number) => {
    event.preventDefault();
    if (dragged !== null) move(dragged, to);
    setDragged(null);
  };
  const attachable = allFields.options.filter((o) => !list.some((i) => String(i.contactFieldId) === o.value));

  return (
    <section className="panel" id="contact-fields" aria-labelledby="contact-fields-title">
      <div className="panel-heading">
        <h2 id="contact-fields-title">Contact Fields</h2>
        {canEdit && (
          <Link className="btn btn-small btn-secondary" to={pathTo('ContactFieldsAdd', { screenerId })}>
            New Contact Field
          </Link>
        )}
      </div>
      {loaded.error ? <ErrorText message="Could not load the contact fields." /> : null}
      <ErrorText message={error} />
      <p role="status" className="muted">
        {status ?? ''}
      </p>
      {items === null && !loaded.error ? (
        <p className="muted">Loading…</p>
      ) : list.length === 0 ? (
        <p className="muted">No contact fields attached yet.</p>
      ) : (
        <ol className="reorder-list" aria-label="Contact field order">
          {list.map((item, index) => (
            <li
              key={item.contactFieldId}
              className={dragged === index ? 'reorder-item dragging' : 'reorder-item'}
              draggable={canEdit && !busy}
              data-testid={`contact-field-${item.name}`}
              onDragStart={(event) => {
                setDragged(index);
                event.dataTransfer?.setData('text/plain', String(index));
              }}
              onDragOver={(event) => canEdit && event.preventDefault()}
              onDrop={(event) => onDrop(event, index)}
              onDragEnd={() => setDragged(null)}
            >
              <span className="reorder-handle" aria-hidden="true">
                ⋮⋮
              </span>
              <span className="reorder-label">
                {item.label} <span className="muted">({item.name})</span>
              </span>
              {canEdit && (
                <span className="row-actions">
                  <MoveButtons label={item.label} index={index} count={list.length} busy={busy} onMove={(place) => move(index, place - 1)} />
                  <button
                    type="button"
                    className="btn btn-small btn-danger-outline"
                    aria-label={`Remove ${item.label}`}
                    disabled={busy}
                    onClick={() =>
                      void save(
                        list.filter((_, i) => i !== index),
                        `Removed ${item.label}.`,
                      )
                    }
                  >
                    Remove
                  </button>
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      {canEdit && (
        <div className="add-lookup">
          <Select
            label="Contact field to attach"
            name="attach-contact-field"
            options={attachable}
            emptyLabel="Choose a contact field"
            loading={allFields.loading}
            value={toAttach}
            onChange={setToAttach}
          />
          <button
            type="button"
            className="btn btn-small btn-secondary"
            disabled={busy || !toAttach}
            onClick={() => {
              const option = attachable.find((o) => o.value === toAttach);
              if (!option) return;
              setToAttach('');
              void save([...list, { contactFieldId: Number(option.value), label: option.label, name: '' }], `Attached ${option.label}.`);
            }}
          >
            Attach
          </button>
        </div>
      )}
    </section>
  );
}
