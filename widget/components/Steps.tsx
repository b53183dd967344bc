/**
 * The screens of a qualified participant's steps after the survey: ZIP, trial sites, contact
 * form, consent; and the contact form as a lead's at notQualified, noTrialSites and notActive
 * (the outcome's title and message pair, the consent box in the form, "No thanks"). Part of the
 * widget's second file (../restOfRun.ts).
 */
import type { ComponentChildren } from 'preact';
import { stepStrings, type StepText } from '@core/i18n/participantSteps';
import type { ConsentBox, RunnerContactField, TrialSite } from '@core/survey/runner';
import type { StepProps } from '../runTypes';
import { Html, htmlProps, Nav } from './Card';
import { Err, Input, Req } from './Fields';
import { ENTRY, translated } from './Question';
import { participantText } from './text';

/** The screen of the step the runner is on: zip, sites, contact or consent. */
export function StepView(props: StepProps) {
  const { s, view, ctl, busy, hasErrors, back, h } = props;
  const r = ctl.runner;
  const text = participantText(s.language);
  const t = stepStrings(s.language);
  // The ZIP code: the zip step's (required; a postal code or town abroad), and a lead's optional one
  // (a postal code of the channel's region, the country the runner holds).
  const abroad = !!s.country;
  const zip = (label: string, required?: boolean) => (
    <Input
      id="tw-zip"
      label={abroad ? label : t.zipLabel}
      required={required}
      value={s.zip}
      error={s.errors.zip}
      type="text"
      inputMode={abroad ? 'text' : 'numeric'}
      autoComplete="postal-code"
      maxLength={99}
      text={text}
      onInput={r.enterZip}
    />
  );
  if (view === 'zip') {
    // Offered only when a site is outside the US; '' stands for the US and its ZIP code.
    const countries = s.qualification?.siteCountries as string[] | undefined;
    return (
      <form noValidate onSubmit={(e) => (e.preventDefault(), void r.submitZip())}>
        {h(t.zipTitle)}
        <Html html={s.messages.contactForm} />
        {countries && (
          <div class="tw-field">
            <label for="tw-country" class="tw-label">
              {t.country}
            </label>
            <select id="tw-country" class="tw-input" value={s.country} onChange={(e) => r.enterZip(s.zip, e.currentTarget.value)}>
              {countries.map((c) => (
                // biome-ignore lint/correctness/useJsxKeyInIterable: a fixed list that never reorders; keys would only cost bytes
                <option value={c == 'US' ? '' : c}>{regionName(c, s.language)}</option>
              ))}
            </select>
          </div>
        )}
        {zip(t.place, true)}
        <Nav busy={busy} error={hasErrors} text={text} label={t.search} />
      </form>
    );
  }
  if (view === 'sites') {
    // The nearest site until one is picked; chooseSite itself ignores an id not among the sites.
    const chosen = s.siteId ?? s.sites[0]?.id;
    return (
      <form noValidate onSubmit={(e) => (e.preventDefault(), void r.chooseSite(chosen!))}>
        {h(t.sitesTitle)}
        <Html html={s.messages.contactForm} />
        <fieldset class="tw-fieldset">
          <legend class="tw-label">{t.sitesTitle}</legend>
          {s.sites.map((site) => (
            <label class="tw-choice tw-site" key={site.id}>
              <input type="radio" name="tw-site" value={site.id} checked={chosen === site.id} disabled={busy} onChange={() => r.pickSite(site.id)} />
              <span>
                <strong>{site.name}</strong>
                <span class="tw-helper">{[site.address1, site.city, site.state, site.zipCode].filter(Boolean).join(', ')}</span>
                <span class="tw-distance">{away(t, site)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Nav busy={busy} text={text} onBack={back} />
      </form>
    );
  }
  if (view === 'contact') {
    const lead = s.lead;
    return (
      <form noValidate onSubmit={(e) => (e.preventDefault(), r.submitContact())}>
        {h(lead ? text[lead as 'notQualified'] : t.contactTitle)}
        <Html html={s.messages.contactForm} />
        {s.contactFields.map((f) => (
          <ContactInput key={f.id} field={f} {...props} />
        ))}
        {/* Where no site was searched and the screener asks no ZIP: an optional one, the lead's place. */}
        {lead && lead != 'noTrialSites' && !s.contactFields.some((f) => f.fieldType == 'zip') && zip(t.postal)}
        {lead && <Accept {...props}>{s.messages.consent ? <span class="tw-html" {...htmlProps(s.messages.consent)} /> : t.accept}</Accept>}
        <Nav
          busy={busy}
          error={hasErrors}
          text={text}
          label={lead ? t.submit : undefined}
          onBack={lead ? r.back : back}
          backLabel={lead ? t.noThanks : undefined}
        />
      </form>
    );
  }
  return (
    <form noValidate onSubmit={(e) => (e.preventDefault(), void r.submitConsent())}>
      {h(t.consentTitle)}
      <Html html={s.messages.consent} />
      <Accept {...props}>{t.accept}</Accept>
      {/* The separate consent to be texted, offered when the form asks a phone number; never ticked for them. */}
      {s.messages.sms && (
        <Accept {...props} box="sms">
          {s.messages.sms}
        </Accept>
      )}
      <Nav busy={busy} error={hasErrors} text={text} label={t.submit} onBack={back} />
    </form>
  );
}

/** A consent box: the consent step's, a lead's with the outcome's consent message as its text, and (`box="sms"`) the one to be texted. */
function Accept({ s, ctl, children, box = 'acceptTerms' }: StepProps & { children: ComponentChildren; box?: ConsentBox }) {
  const error = s.errors[box];
  const id = `tw-${box}-err`;
  return (
    <div class="tw-field">
      <label class="tw-choice">
        <input
          type="checkbox"
          checked={s[box]}
          aria-invalid={!!error}
          aria-describedby={error ? id : undefined}
          onChange={(e) => ctl.runner.accept(e.currentTarget.checked, box)}
        />
        <span>{children}</span>
      </label>
      <Err id={id} error={error} />
    </div>
  );
}

/** A site's distance as the participant reads it, to 0.1 of the unit the channel's locale reads (miles unless the server says km). */
function away(t: StepText, site: TrialSite) {
  const n = Math.round((site.distance ?? site.distanceMiles) * 10) / 10;
  return n ? (site.distanceUnit == 'km' ? t.km : t.miles).replace('{n}', String(n)).replace('{s}', n === 1 ? '' : 's') : t.near;
}

/** A country's name in the participant's language, from the browser's own data (none shipped). */
function regionName(code: string, language: string) {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code);
  } catch {
    return code;
  }
}

// Browsers fill in names only for fields that say which part of the name they hold: the
// field's machine name tells (first_name or given_name; last_name, family_name or surname, with
// or without the underscore); the other kinds go by type.
const NAME_PART = /^(?:(first|given)|last|family|sur)_?name$/;

function ContactInput({ field, s, ctl }: StepProps & { field: RunnerContactField }) {
  const text = participantText(s.language);
  const label = translated(field.translations, s.language) ?? field.label;
  const id = `tw-c-${field.id}`;
  const error = s.errors[field.name];
  if (field.fieldType === 'checkbox') {
    return (
      <div class="tw-field">
        <label class="tw-choice">
          <input
            type="checkbox"
            id={id}
            checked={s.contact[field.name] === true}
            aria-invalid={!!error}
            aria-describedby={error ? `${id}-err` : undefined}
            onChange={(e) => ctl.runner.setContact(field.name, e.currentTarget.checked)}
          />
          <span>
            {label}
            {field.required && <Req text={text} />}
          </span>
        </label>
        <Err id={`${id}-err`} error={error} />
      </div>
    );
  }
  const [type, inputMode, autoComplete, placeholder] = ENTRY[field.fieldType]!;
  const part = NAME_PART.exec(field.name);
  return (
    <Input
      id={id}
      label={label}
      required={field.required}
      value={String(s.contact[field.name] ?? '')}
      error={error}
      type={type}
      inputMode={inputMode}
      autoComplete={autoComplete ?? (part ? (part[1] ? 'given-name' : 'family-name') : undefined)}
      placeholder={placeholder}
      text={text}
      onInput={(v) => ctl.runner.setContact(field.name, v)}
    />
  );
}
