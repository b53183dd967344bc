import type { ServerProblem } from '../survey/runner';

/**
 * A participant call answered with a status the run cannot carry on from (an unknown channel, a
 * token that no longer opens its submission, a server failure). A 422 is not one: it comes back
 * as the fields' problems.
 */
export class HttpError extends Error {
  // Declared, not a class field: the widget's es2020 build would add a defineProperty helper.
  declare readonly status: number;
  /** The answer's first error, when it has one: an embed problem's `code` and its one-line `detail` (../model/embedProblem.ts). */
  declare readonly problem?: ServerProblem;
  constructor(status: number, problem?: ServerProblem) {
    super(`HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}
