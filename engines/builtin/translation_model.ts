/**
 * A translation model loaded from an installed folder: tokenizer, ONNX sessions, the way it names
 * languages, and its input window. Loading never touches the network.
 */
import {
  AutoModelForSeq2SeqLM,
  AutoTokenizer,
  env,
  MarianTokenizer,
  type PreTrainedModel,
  type PreTrainedTokenizer,
  type Tensor,
} from "@huggingface/transformers";
import type { InstalledModel } from "../../models/model_store.ts";
import {
  type LanguageScheme,
  marianPair,
  marianScheme,
  type ModelTarget,
  tokenScheme,
} from "./language_codes.ts";

/** A batch ready for generation. */
export interface EncodedBatch {
  inputs: Record<string, Tensor>;
  forcedBosTokenId?: number;
}

/** A loaded translation model. */
export interface TranslationModel {
  readonly id: string;
  readonly dtype: string;
  readonly model: PreTrainedModel;
  readonly scheme: LanguageScheme;
  /** Most input tokens (special tokens included) one piece of text may take. */
  readonly window: number;
  /** Tokens `text` takes as one input, special tokens included. */
  countTokens(text: string): number;
  /**
   * Tokenizes a batch written in `source` (the model's code, null for single-pair models), padded.
   * The source is set on every call: the tokenizer otherwise keeps the previous call's.
   */
  encode(texts: string[], source: string | null, target: ModelTarget): EncodedBatch;
  /** Generated ids → text, special tokens removed. */
  decode(ids: number[]): string;
  /** Releases the ONNX sessions. */
  dispose(): Promise<void>;
}

/** Options of {@link loadTranslationModel}. */
export interface LoadOptions {
  /** Upper bound on the input window, below the tokenizer's `model_max_length`. */
  maxInputTokens: number;
}

interface TranslationTokenizer {
  language_codes?: unknown;
  _build_translation_inputs?: (texts: string[], options: object, kwargs: object) => object;
}

/**
 * Loads an installed model with the first installed dtype in preference order.
 *
 * @throws {Error} when the files do not load or the model is not a known translation family.
 */
export async function loadTranslationModel(
  installed: InstalledModel,
  options: LoadOptions,
): Promise<TranslationModel> {
  // Served models come only from the models directory; `tolk models pull` is the one downloader.
  env.allowRemoteModels = false;
  // transformers.js turns local files off when it finds itself in a Web Worker
  // (`model_worker.ts`); the models directory is the only source either way.
  env.allowLocalModels = true;
  const dtype = installed.dtypes[0];
  // An absolute folder path is not a hub id, so transformers.js reads it as is and never
  // consults the process-wide env.localModelPath.
  const tokenizer = await AutoTokenizer.from_pretrained(installed.path);
  const scheme = schemeOf(tokenizer, installed.id);
  const model = await AutoModelForSeq2SeqLM.from_pretrained(installed.path, {
    dtype: dtype as "fp32",
    device: "cpu",
    session_options: {
      // onnxruntime's threads otherwise spin for a while after every operator: on a small
      // machine they take the cores the service's event loop and its clients need.
      extra: { session: { intra_op: { allow_spinning: "0" }, inter_op: { allow_spinning: "0" } } },
    },
  });
  const usesTokens = Array.isArray((tokenizer as TranslationTokenizer).language_codes);
  return {
    id: installed.id,
    dtype,
    model,
    scheme,
    window: Math.max(8, Math.min(tokenizer.model_max_length, options.maxInputTokens)),
    countTokens: (text) => tokenizer.encode(text).length,
    encode(texts, source, target) {
      if (!usesTokens) {
        const prefixed = target.code ? texts.map((text) => `${target.code} ${text}`) : texts;
        return { inputs: tokenizer(prefixed, { padding: true, truncation: true }) };
      }
      const kwargs: { src_lang?: string; tgt_lang?: string; forced_bos_token_id?: number } = {
        src_lang: source ?? undefined,
        tgt_lang: target.code ?? undefined,
      };
      const inputs = (tokenizer as TranslationTokenizer)._build_translation_inputs!(
        texts,
        { padding: true, truncation: true },
        kwargs,
      ) as Record<string, Tensor>;
      return { inputs, forcedBosTokenId: kwargs.forced_bos_token_id };
    },
    decode: (ids) => tokenizer.decode(ids, { skip_special_tokens: true }).trim(),
    dispose: async () => {
      await model.dispose();
    },
  };
}

function schemeOf(tokenizer: PreTrainedTokenizer, id: string): LanguageScheme {
  const codes = (tokenizer as TranslationTokenizer).language_codes;
  if (
    Array.isArray(codes) &&
    typeof (tokenizer as TranslationTokenizer)._build_translation_inputs === "function"
  ) {
    if (codes.length === 0) throw new Error(`${id} has no language tokens in its tokenizer`);
    return tokenScheme(codes);
  }
  if (tokenizer instanceof MarianTokenizer) {
    const pair = marianPair(tokenizer._tokenizerConfig ?? {}, id, tokenizer.get_vocab().keys());
    if (pair) return marianScheme(pair);
    throw new Error(
      `${id} does not say which language pair it translates (source_lang/target_lang)`,
    );
  }
  throw new Error(
    `${id} uses ${tokenizer.constructor.name}; the built-in engine loads NLLB, M2M100 and Marian models`,
  );
}
