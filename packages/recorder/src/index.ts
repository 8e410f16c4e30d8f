export { captureScript, type CaptureConfig } from './capture-script.js';
export { type TestDataDigest } from '@rehearse/codegen';
export {
  RecorderSession,
  digestTestData,
  relativePath,
  type AssertMode,
  type Frame,
  type RecorderSessionOptions,
  type SessionPanel,
} from './session.js';
export { LocalPanel, PANEL_LABELS, type LocalPanelOptions, type PublishNames } from './panel/local-panel.js';
export {
  generate,
  pageName,
  parseStepFile,
  LOCATORS_DIR,
  STEP_DEFINITIONS_DIR,
  type GeneratedFiles,
  type GenerateInput,
} from '@rehearse/codegen';
