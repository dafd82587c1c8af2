/**
 * `GET /v1/openapi.json` checked as a document, beyond the OpenAPI validator of openapi_test.ts:
 * that validator resolves `$ref`s but takes any object as a schema (`{type: "strin"}` passes).
 * Here every schema is compiled as JSON Schema 2020-12 (OpenAPI 3.1's dialect) in Ajv's strict
 * mode, every default and example is held to its schema, and every operation answers something
 * and declares the parameters of its path.
 */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { withTranslationService } from "../../support/translation_service.ts";

type Json = Record<string, unknown>;

/** Where `walk` met a value, as a JSON Pointer of the document. */
type Visit = (node: Json, pointer: string) => void;

/** Calls `visit` on every object of `node`, depth first. */
function walk(node: unknown, pointer: string, visit: Visit): void {
  if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${pointer}/${i}`, visit));
  if (node === null || typeof node !== "object") return;
  visit(node as Json, pointer);
  for (const [key, value] of Object.entries(node)) {
    walk(value, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`, visit);
  }
}

/** The node a local `$ref` (`#/components/…`) points at; undefined when there is none. */
function resolve(document: Json, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const part of ref.slice(2).split("/")) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    node = node !== null && typeof node === "object" ? (node as Json)[key] : undefined;
  }
  return node;
}

async function fetchDocument(): Promise<Json> {
  let document: Json = {};
  await withTranslationService(async (service) => {
    const response = await fetch(`${service.url}/v1/openapi.json`);
    assert.equal(response.status, 200);
    document = await response.json();
  });
  return document;
}

/**
 * An Ajv (JSON Schema 2020-12, strict) that knows the document's components, so a schema's
 * `#/components/schemas/X` resolves. OpenAPI's own schema keywords are allowed.
 */
function schemaCompiler(document: Json) {
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allowUnionTypes: true, // `type: ["string", "number"]` is 2020-12; strict mode only flags it as a style
    validateFormats: false,
  });
  ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs", "components"]);
  ajv.addSchema({ $id: "document", components: document.components }, "document");
  return (schema: unknown) =>
    ajv.compile(JSON.parse(
      JSON.stringify(schema).replaceAll('"#/components/', '"document#/components/'),
    ));
}

/** Every schema of the document: components' and those inline in parameters and bodies. */
function everySchema(document: Json): { pointer: string; holder: Json; schema: Json }[] {
  const found: { pointer: string; holder: Json; schema: Json }[] = [];
  const schemas = (document.components as Json).schemas as Json;
  for (const [name, schema] of Object.entries(schemas)) {
    found.push({ pointer: `#/components/schemas/${name}`, holder: {}, schema: schema as Json });
  }
  walk(document.paths, "#/paths", (node, pointer) => {
    if (node.schema !== null && typeof node.schema === "object") {
      found.push({ pointer: `${pointer}/schema`, holder: node, schema: node.schema as Json });
    }
  });
  return found;
}

Deno.test("every $ref of the OpenAPI document points at something in it", async () => {
  const document = await fetchDocument();
  const dangling: string[] = [];
  let refs = 0;
  walk(document, "#", (node, pointer) => {
    if (typeof node.$ref !== "string") return;
    refs++;
    if (resolve(document, node.$ref) === undefined) dangling.push(`${pointer}: ${node.$ref}`);
  });
  assert.ok(refs > 10, `too few $refs found (${refs})`);
  assert.deepEqual(dangling, []);
});

Deno.test("every operation has answers, a unique operationId and declares its path's parameters", async () => {
  const document = await fetchDocument();
  const ids = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths as Json)) {
    const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
    for (const [method, operation] of Object.entries(operations as Json)) {
      const { responses, operationId, parameters = [] } = operation as {
        responses?: Json;
        operationId?: string;
        parameters?: { name: string; in: string; required?: boolean }[];
      };
      const where = `${method} ${path}`;
      assert.ok(responses && Object.keys(responses).length > 0, `${where} has no responses`);
      assert.ok(operationId && !ids.has(operationId), `${where}: operationId ${operationId}`);
      ids.add(operationId);
      const declared = parameters.filter((p) => p.in === "path");
      assert.deepEqual(declared.map((p) => p.name).sort(), inPath, where);
      assert.ok(declared.every((p) => p.required === true), `${where}: path parameters required`);
    }
  }
});

Deno.test("every schema of the OpenAPI document is valid JSON Schema 2020-12, its defaults and examples included", async () => {
  const document = await fetchDocument();
  const compile = schemaCompiler(document);
  const schemas = everySchema(document);
  assert.ok(schemas.length > 50, `too few schemas found (${schemas.length})`);
  const invalid: string[] = [];
  for (const { pointer, holder, schema } of schemas) {
    let validate;
    try {
      validate = compile(schema);
    } catch (error) {
      invalid.push(`${pointer}: ${(error as Error).message}`);
      continue;
    }
    const examples = [
      ...("example" in holder ? [holder.example] : []),
      ...Object.values((holder.examples ?? {}) as Record<string, { value: unknown }>)
        .map((example) => example.value),
    ];
    for (const example of examples) {
      if (!validate(example)) {
        invalid.push(`${pointer} example: ${JSON.stringify(validate.errors)}`);
      }
    }
  }
  walk(document, "#", (node, pointer) => {
    if (!("default" in node) || typeof node.type !== "string") return;
    const { default: fallback, ...rest } = node;
    const validate = compile(rest);
    if (!validate(fallback)) invalid.push(`${pointer} default ${JSON.stringify(fallback)}`);
  });
  assert.deepEqual(invalid, []);
});
