export { captureScript, type CaptureConfig, type TestDataDigest } from './capture-script.js';
export { RecorderSession, digestTestData, relativePath, type Frame, type RecorderSessionOptions } from './session.js';
export { generate, pageName, parseStepFile, LOCATORS_DIR, STEP_DEFINITIONS_DIR, type GeneratedFiles, type GenerateInput } from './generate.js';
