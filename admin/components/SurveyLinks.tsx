/**
 * The surveys linked to a record (a screener's, a media channel's): each by its label and status,
 * with the one button that acts on that link (remove it, turn it on or off).
 */
import { type SurveyNaming, surveyLabel } from '@core/model/surveyNaming';
import { StatusBadge } from './StatusBadge';

/** The link's button: its verb (also its accessible name, with the survey's label), its style and whether it waits. */
export interface SurveyLinkButton {
  verb: string;
  className: string;
  disabled?: boolean;
}

export function SurveyLinks<T extends SurveyNaming & { id: string; isActive: boolean }>({
  label,
  links,
  button,
  onClick,
}: {
  label: string;
  links: readonly T[];
  button: (link: T) => SurveyLinkButton;
  onClick: (link: T) => void;
}) {
  return (
    <ul className="plain-list" aria-label={label}>
      {links.map((link) => {
        const { verb, className, disabled } = button(link);
        return (
          <li key={link.id}>
            {surveyLabel(link)} <StatusBadge active={link.isActive} />{' '}
            <button
              type="button"
              className={`btn btn-small ${className}`}
              aria-label={`${verb} ${surveyLabel(link)}`}
              disabled={disabled}
              onClick={() => onClick(link)}
            >
              {verb}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
