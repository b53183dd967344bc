/** The rest of a run as the runner loads it in the tests: the module itself (the widget loads it as its second file). */
export const later = () => import('@core/survey/runnerLater');
