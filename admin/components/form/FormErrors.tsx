/** A form's message that belongs to no single field (a refused save, a lost connection). */
export function FormErrors({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <div className="form-errors" role="alert">
      {message}
    </div>
  );
}
