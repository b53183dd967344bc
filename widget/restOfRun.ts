/**
 * The widget's second file: everything a run needs once its first page is on screen, fetched
 * while the participant reads it. The rest of the run (core/survey/runnerLater.ts), the rest of the
 * participant transport, and the screens of the steps after the survey. The first file
 * (widget.js and the module it imports) holds only what shows the first question.
 */
export { createRunMoves } from '@core/survey/runnerLater';
export { createParticipantTransport } from '@core/participant/transport';
export { StepView } from './components/Steps';
