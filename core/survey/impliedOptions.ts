/**
 * The options a question offers beyond its own, read by the server's answer check and by the
 * widget's question (kept apart from the checks, which the widget loads later).
 */
import type { FieldType } from '../model/survey';

/**
 * The options a question offers beyond its own: a yes/no question without options of its own
 * offers yes and no (the participant sees them in their language; the server accepts them).
 */
export function impliedOptions(type: FieldType, own: readonly unknown[]): readonly ('yes' | 'no')[] {
  return type === 'yes_no' && own.length === 0 ? ['yes', 'no'] : [];
}
