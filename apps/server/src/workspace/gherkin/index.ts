/** The Gherkin module's public surface: parse, splice, name rules, tags. Pure; no I/O. */
export {
  formatGherkinError,
  parseFeature,
  type GherkinError,
  type ParsedFeature,
  type ParsedScenario,
  type ParsedStep,
} from './feature-parser.js';
export {
  appendScenario,
  newFeatureText,
  removeScenario,
  renameFeature,
  renameScenario,
  replaceScenario,
  setScenarioTags,
  validateScenarioText,
  type EditResult,
} from './feature-splice.js';
export {
  featureDisplayName,
  uniqueScenarioName,
  validateFeatureRename,
  validateNewFeatureName,
  validateScenarioRename,
} from '@rehearse/contract';
