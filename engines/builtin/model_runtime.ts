/**
 * Everything of the built-in engine that needs transformers.js, behind one module that the model
 * worker (`model_worker.ts`) imports on its first load.
 */
export { translateWithModel } from "./model_translation.ts";
export { loadTranslationModel } from "./translation_model.ts";
