/**
 * The message for a reference to a record that is not one (an unknown, inactive or out-of-scope
 * id or identity): the API's one sentence for it, naming what to choose ("a survey", "sponsors").
 */
export const chooseFromList = (what: string) => `Choose ${what} from the list.`;
