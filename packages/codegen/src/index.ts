export {
  generate,
  pageName,
  stepLines,
  LOCATORS_DIR,
  STEP_DEFINITIONS_DIR,
  type GeneratedFiles,
  type GeneratedStep,
  type GenerateInput,
} from './generate.js';
export {
  expressionForStep,
  findStepFunction,
  nameOfNode,
  parseStepFile,
  parseStepModule,
  removeDefinitions,
  scanStepDefinitions,
  spliceStepFile,
  StepFunctionError,
  StepMatcher,
  stepPatternOf,
  STEP_FUNCTIONS,
  type FoundFunction,
  type StepDefinition,
  type StepSource,
} from './step-files.js';
export { applySourceEdits, type SourceEdit } from './source-edits.js';
export { digestTestData, type FromRecorder, type RecorderProcessConfig, type TestDataDigest, type ToRecorder } from './recorder-ipc.js';
