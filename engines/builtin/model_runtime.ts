/**
 * Everything of the built-in engine that needs transformers.js, behind one module that
 * `engines/builtin/builtin_engine.ts` imports on first use.
 */
export { random } from "@huggingface/transformers";
export { generateRows } from "./seq2seq_generation.ts";
export { loadTranslationModel } from "./translation_model.ts";
