import { TextArea } from '../../components/form/TextArea';
import { TextField } from '../../components/form/TextField';

/**
 * A survey text as the editor shows it: with no translation language (`lang` null) the text
 * itself; in a translation language its translation there, named for the language, with the
 * text it translates as the hint (never required: a missing one falls back). `rows` makes it
 * a text area.
 */
export function TranslatedField({
  label,
  name,
  lang,
  required,
  maxLength,
  rows,
  text,
  translation,
  onText,
  onTranslation,
}: {
  label: string;
  name: string;
  lang: string | null;
  required?: boolean;
  maxLength: number;
  rows?: number;
  text: string;
  translation: string | undefined;
  onText: (text: string) => void;
  onTranslation: (text: string) => void;
}) {
  const props =
    lang === null
      ? { label, name, required, maxLength, value: text, onChange: onText }
      : { label: `${label} (${lang})`, name: `${name}-${lang}`, hint: text, maxLength, value: translation ?? '', onChange: onTranslation };
  return rows ? <TextArea {...props} rows={rows} /> : <TextField {...props} />;
}
