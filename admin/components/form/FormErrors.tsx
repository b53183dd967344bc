type ErrorProps = { message?: string | null };

/** The one look of a failure: nothing when there is none, else an alert. */
function ErrorAlert({ as: Tag, message }: ErrorProps & { as: 'div' | 'p' }) {
  if (!message) return null;
  return (
    <Tag className="form-errors" role="alert">
      {message}
    </Tag>
  );
}

/** A form's message that belongs to no single field (a refused save, a lost connection). */
export const FormErrors = ({ message }: ErrorProps) => <ErrorAlert as="div" message={message} />;

/** A panel's or an action's failure, said in a line beside what failed (not a whole form's). */
export const ErrorText = ({ message }: ErrorProps) => <ErrorAlert as="p" message={message} />;
