/**
 * Models that make embeddings, not text: a runner lists them beside its chat models (Ollama's
 * `/api/tags`, LM Studio's `/v1/models`), and one chosen to translate fails every request
 * (Ollama: HTTP 400 "does not support chat"). They stay listed, as what the engine has, but
 * not ready, and are never chosen.
 *
 * Pure: no I/O.
 */

/**
 * Names of embedding models: "embed" anywhere (nomic-embed-text, mxbai-embed-large,
 * snowflake-arctic-embed, granite-embedding, qwen3-embedding, embeddinggemma, LM Studio's
 * `text-embedding-…`), or a family of them as a word of the name (bge-m3, all-minilm, e5, gte,
 * mpnet): what an OpenAI-style list gives, ids alone.
 */
const EMBEDDING_NAME = /embed|(?:^|[/:_.-])(?:bge|minilm|e5|gte|mpnet)(?:[/:_.-]|$)/i;

/**
 * Architectures of Ollama's `details.family` that only encode (BERT and its kin: bge-m3 and
 * paraphrase-multilingual are "bert", nomic-embed-text "nomic-bert"): they cannot generate, so
 * whatever the name, no chat model. Read from the model list at no cost; `/api/show`'s
 * `capabilities` would say it too, at one more request per model on every probe.
 */
const ENCODER_FAMILIES = new Set([
  "bert",
  "nomic-bert",
  "nomic-bert-moe",
  "jina-bert",
  "jina-bert-v2",
  "xlm-roberta",
  "roberta",
  "modernbert",
  "t5encoder",
]);

/**
 * Why the model `id` cannot translate, when it is an embedding model by its name or by one of
 * its `families` (Ollama's `details.family` and `details.families`); undefined for a chat model.
 *
 * @example
 * ```ts
 * embeddingModel("bge-m3:latest"); // "an embedding model, which cannot translate"
 * embeddingModel("paraphrase-multilingual:latest", ["bert"]); // "… (family bert) …"
 * embeddingModel("qwen2.5:7b", ["qwen2"]); // undefined
 * ```
 */
export function embeddingModel(id: string, families: readonly unknown[] = []): string | undefined {
  const encoder = families.find((family) =>
    typeof family === "string" && ENCODER_FAMILIES.has(family.toLowerCase())
  );
  if (encoder !== undefined) {
    return `an embedding model (family ${encoder}), which cannot translate`;
  }
  return EMBEDDING_NAME.test(id) ? "an embedding model, which cannot translate" : undefined;
}
