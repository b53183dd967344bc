/**
 * The version bar: version N and its state, the other versions, Approve (a dialog listing the
 * translations still missing), New version (a copy of the latest), the Active switch, and the
 * PDF and metrics exports.
 */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import * as Dialog from '@radix-ui/react-dialog';
import { ApiError } from '@core/api/client';
import { surveyExportsApi } from '@core/api/surveyExports';
import type { MissingTranslation } from '@core/model/surveyExport';
import { MISSING_TRANSLATIONS_CODE } from '@core/model/surveyExport';
import type { SurveyVersion } from '@core/model/surveyDoc';
import { saveBlob } from '../../components/downloadBlob';
import { FormErrors } from '../../components/form/FormErrors';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import type { SurveysApi } from './context';
import { useAction } from '../../hooks/useAction';
import { APPROVE_FAILED, COPY_FAILED, EXPORT_FAILED, SAVE_FAILED, failureText, isFrozen, versionStatus } from './values';
import './surveys.css';

const KIND_LABELS: Record<MissingTranslation['kind'], string> = {
  page: 'Page title',
  question: 'Question',
  helperText: 'Helper text',
  option: 'Option',
  message: 'Message',
};

export function VersionBadge({ form }: { form: Pick<SurveyVersion, 'approvedAt' | 'isApproved'> }) {
  const status = versionStatus(form);
  return <span className={form.isApproved ? 'badge badge-active' : 'badge badge-inactive'}>{status}</span>;
}

function MissingList({ missing }: { missing: readonly MissingTranslation[] }) {
  return (
    <ul className="missing-translations" aria-label="Missing translations">
      {missing.map((m) => (
        <li key={`${m.kind}:${m.id}:${m.language}`}>
          {KIND_LABELS[m.kind]} ‘{m.title}’ has no {m.language} translation.
        </li>
      ))}
    </ul>
  );
}

function ApproveDialog({
  form,
  approve: approveVersion,
  onApproved,
}: {
  form: SurveyVersion;
  approve: (id: string) => Promise<unknown>;
  onApproved: () => Promise<void>;
}) {
  const api = useApi(surveyExportsApi);
  const [open, setOpen] = useState(false);
  const [missing, setMissing] = useState<MissingTranslation[] | null>(null);
  const action = useAction();

  const openDialog = async () => {
    setMissing(null);
    action.setError(null);
    setOpen(true);
    try {
      setMissing(await api.missingTranslations(form.id));
    } catch (e) {
      setMissing([]);
      action.setError(failureText(e, APPROVE_FAILED));
    }
  };
  const approve = () =>
    action.run(async () => {
      try {
        await approveVersion(form.id);
      } catch (e) {
        const problem = e instanceof ApiError ? e.errors.find((x) => x.code === MISSING_TRANSLATIONS_CODE) : undefined;
        const listed = problem?.meta?.missing;
        if (Array.isArray(listed)) setMissing(listed as MissingTranslation[]);
        throw e;
      }
      setOpen(false);
      await onApproved();
    }, APPROVE_FAILED);

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <button type="button" className="btn btn-primary" onClick={openDialog}>
        Approve
      </button>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-busy={action.busy || missing === null || undefined}>
          <Dialog.Title className="dialog-title">Approve version {form.version}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="dialog-message">
              {missing === null ? (
                <p>Checking translations…</p>
              ) : missing.length > 0 ? (
                <>
                  <p>This version cannot be approved until these texts are translated (or their language is disabled):</p>
                  <MissingList missing={missing} />
                </>
              ) : (
                <p>Once approved, version {form.version} can never change again; participants will be shown it instead of the version approved before.</p>
              )}
            </div>
          </Dialog.Description>
          <FormErrors message={action.error} />
          <div className="dialog-buttons">
            <Dialog.Close asChild>
              <button type="button" className="btn btn-secondary">
                Cancel
              </button>
            </Dialog.Close>
            <button type="button" className="btn btn-primary" disabled={action.busy || missing === null || missing.length > 0} onClick={approve}>
              Confirm
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** `readOnly` (the view screen) leaves out Approve; making a version and the Active switch are not edits of this one. */
export function VersionBar({
  ctx,
  readOnly = false,
}: {
  ctx: { api: SurveysApi; detail: { form: SurveyVersion }; refresh: () => Promise<void> };
  readOnly?: boolean;
}) {
  const { form } = ctx.detail;
  const exportsApi = useApi(surveyExportsApi);
  const navigate = useNavigate();
  const notify = useNotify();
  const action = useAction();
  const versions = useAsync(() => ctx.api.versions(form.identity), [ctx.api, form.identity, form.modified]);

  const copy = () =>
    action.run(async () => {
      const next = await ctx.api.copy(form.identity);
      notify('success', `Version ${next.version} made.`);
      navigate(pathTo('VersionedSurveyEdit', { id: next.id }));
    }, COPY_FAILED);
  const toggleActive = () =>
    action.run(async () => {
      await ctx.api.update(form.id, { isActive: !form.isActive });
      await ctx.refresh();
    }, SAVE_FAILED);
  const exportPdf = () =>
    action.run(async () => {
      const { blob, filename } = await exportsApi.downloadPdf(form.id, false);
      saveBlob(blob, filename);
    }, EXPORT_FAILED);
  const exportMetrics = () =>
    action.run(async () => {
      const { blob, filename } = await exportsApi.downloadMetrics(form.id);
      saveBlob(blob, filename);
    }, EXPORT_FAILED);

  return (
    <section className="panel version-bar" aria-label="Version" aria-busy={action.busy || undefined}>
      <div className="version-bar-row">
        <strong>Version {form.version}</strong> <VersionBadge form={form} />
        {!readOnly && !isFrozen(form) && <ApproveDialog form={form} approve={ctx.api.approve} onApproved={ctx.refresh} />}
        <button type="button" className="btn btn-secondary" disabled={action.busy} onClick={copy}>
          New version
        </button>
        <label className="check-item">
          <input type="checkbox" checked={form.isActive} disabled={action.busy} onChange={toggleActive} /> Active
        </label>
        <button type="button" className="btn btn-secondary" disabled={action.busy} onClick={exportPdf}>
          Export PDF
        </button>
        <button type="button" className="btn btn-secondary" disabled={action.busy} onClick={exportMetrics}>
          Export metrics
        </button>
      </div>
      <FormErrors message={action.error} />
      {versions.data && versions.data.length > 1 && (
        <nav aria-label="Versions" className="muted">
          Versions:{' '}
          {versions.data.map((v, i) => (
            <span key={v.id}>
              {i > 0 && ' · '}
              {v.id === form.id ? (
                <strong aria-current="page">
                  Version {v.version} ({versionStatus(v)})
                </strong>
              ) : (
                <Link to={pathTo(isFrozen(v) ? 'VersionedSurveyView' : 'VersionedSurveyEdit', { id: v.id })}>
                  Version {v.version} ({versionStatus(v)})
                </Link>
              )}
            </span>
          ))}
        </nav>
      )}
    </section>
  );
}
