/**
 * Keys of a settings file that the schema does not know. They are kept on every rewrite (another
 * tool or a newer tolk may write them), but a typo such as `"enabeld"` would otherwise change
 * nothing without a word: the store names them once per version of the file.
 */
import type { z } from "zod";

/** The dotted paths of `raw`'s keys that `schema` (a zod object, maybe wrapped) does not read. */
export function unknownKeys(raw: unknown, schema: z.ZodType, prefix = ""): string[] {
  const shape = objectShape(schema);
  if (!shape || !isPlainObject(raw)) return [];
  return Object.entries(raw).flatMap(([key, value]) => {
    const path = `${prefix}${key}`;
    if (!Object.hasOwn(shape, key)) return [path];
    return unknownKeys(value, shape[key], `${path}.`);
  });
}

/** The shape of an object schema under its defaults, prefaults and nullables. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let current = schema as z.ZodType & { _zod: { def: { type: string; innerType?: z.ZodType } } };
  while (current._zod.def.innerType) current = current._zod.def.innerType as typeof current;
  if (current._zod.def.type !== "object") return undefined;
  return (current as unknown as z.ZodObject).shape;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
