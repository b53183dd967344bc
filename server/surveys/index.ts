/** What other areas may use of surveys. */
export { currentVersionId, findForm, namingColumns } from './versions';
export { type ContainerRow, loadStructure, pageOf, type Structure } from './structure';
export { closeGaps, moveTo } from './ordering';
export { assertCategory, assertTags, writeTags } from './tagging';
export { copiesMadeFor, copyIntoScreener, existingIdentities, screenerCopyIdentity } from './copy';
