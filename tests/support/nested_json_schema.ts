/**
 * JSON Schemas nested to a chosen depth, the hostile `response_format` shape shared by the
 * `tolk infer` schema-limit test and the infer fuzzer.
 */

/**
 * A string schema wrapped `levels` times through `via`: `items`, `properties`, or a combinator
 * such as `allOf`.
 *
 * @example
 * ```ts
 * nestedJsonSchema(2, "items"); // {type:"array",items:{type:"array",items:{type:"string"}}}
 * ```
 */
export function nestedJsonSchema(levels: number, via: string): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < levels; i++) {
    schema = via === "items"
      ? { type: "array", items: schema }
      : via === "properties"
      ? { type: "object", properties: { a: schema } }
      : { [via]: [schema] };
  }
  return schema;
}
