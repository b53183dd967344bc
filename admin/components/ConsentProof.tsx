import type { ReactNode } from 'react';

/** A contact's consent proof: the summary, expanding to the text as the participant saw it and its hash. */
export function ConsentProof({ summary, text, sha256, textLabel }: { summary: ReactNode; text: string; sha256: string | null; textLabel: string }) {
  return (
    <details className="rms-response">
      <summary>{summary}</summary>
      <pre aria-label={textLabel}>{text}</pre>
      <code>SHA-256 {sha256}</code>
    </details>
  );
}
