/** The Gherkin module's public surface: parse, splice, name rules, tags. Pure; no I/O. */
export {
  formatGherkinError,
  parseFeature,
  type GherkinError,
  type LineRange,
  type ParsedBackground,
  type ParsedExamples,
  type ParsedFeature,
  type ParsedRule,
  type ParsedScenario,
  type ParsedStep,
  type ParseResult,
  type ScenarioType,
  type StepKeywordType,
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
  type EditProblem,
  type EditResult,
  type ScenarioTextResult,
} from './feature-splice.js';
export { allTags, scenarioHasAnyTag, scenarioTagSources, scenariosWithAnyTag, type ScenarioTagSources } from './gherkin-tags.js';
export {
  featureDisplayName,
  uniqueScenarioName,
  validateFeatureRename,
  validateNewFeatureName,
  validateScenarioRename,
} from '@rehearse/contract';
