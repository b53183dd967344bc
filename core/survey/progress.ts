/**
 * The progress bar (SPEC section 4): its maximum is the survey's container count; it moves by
 * one up or down, can reset to 0, and shows floor(value / max * 100) percent.
 */
export interface Progress {
  readonly value: number;
  readonly max: number;
}

export const startProgress = (containerCount: number): Progress => ({ value: 0, max: Math.max(0, Math.floor(containerCount)) });
export const setProgress = (p: Progress, value: number): Progress => ({ ...p, value: Math.max(0, Math.min(value, p.max)) });
export const stepUp = (p: Progress): Progress => setProgress(p, p.value + 1);
export const stepDown = (p: Progress): Progress => setProgress(p, p.value - 1);
export const resetProgress = (p: Progress): Progress => ({ ...p, value: 0 });
export const percentage = (p: Progress): number => (p.max <= 0 ? 0 : Math.floor((p.value / p.max) * 100));
