/**
 * The README's Permissions table against the one table the commands run under
 * (cli/permissions.ts): for each row, what the network, files and other cells say each command
 * holds is what it holds — no kind granted that the row leaves out, none the row names missing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  APP_ROOT,
  type CommandPermissions,
  commandPermissions,
  permissionRow,
} from "../../cli/permissions.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const PATHS = { config: "/cfg/settings.json", dataDir: "/data", modelsDir: "/models" };
/** How the README's files cells name each folder a command may use. */
const PATH_NAMES: Record<string, RegExp> = {
  "/cfg": /settings folder/,
  "/data": /\bdata (dir\b|and models dirs)/,
  "/models": /models dirs?\b/,
  [APP_ROOT]: /the app's folder/,
  "/model.gguf": /the model file/,
  "/lib": /`\/lib\*`/,
  "/lib64": /`\/lib\*`/,
  "/usr/lib": /`\/usr\/lib\*`/,
  "/usr/lib64": /`\/usr\/lib\*`/,
};

interface Row {
  command: string;
  net: string;
  files: string;
  other: string;
}

async function readmePermissionRows(): Promise<Row[]> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  return readme.split("\n").filter((line) => line.startsWith("| `tolk ")).map((line) => {
    const [command, net, files, other] = line.split(" | ").map((cell) =>
      cell.replace(/^\| |\|$/g, "").trim()
    );
    return { command, net, files, other };
  });
}

/** The permissions of the row's first command, as `tolk <words>` runs it. */
function granted(row: Row): CommandPermissions {
  const [word, ...rest] = row.command.match(/^`tolk ([^`]+)`/)![1].split(" ");
  const command = permissionRow(word, rest);
  assert.ok(command, row.command);
  return commandPermissions(command, PATHS, { modelPath: "/model.gguf" });
}

/** How the files cell names each of `paths` (an unknown path: never named). */
function named(paths: readonly string[]): RegExp[] {
  return paths.map((path) => PATH_NAMES[path] ?? /$^/);
}

Deno.test("the README's Permissions table says what each command holds", async () => {
  const rows = await readmePermissionRows();
  assert.equal(rows.length, 8, JSON.stringify(rows));
  for (const row of rows) {
    const held = granted(row);
    assert.equal(row.net === "none", held.net.length === 0, `${row.command} network`);
    const [readPart, writePart] = row.files.startsWith("read:")
      ? row.files.split("; write:")
      : [row.files, row.files];
    if (row.files === "none") {
      assert.deepEqual([held.read, held.write], [[], []], row.command);
    } else {
      for (const name of named(held.read)) {
        assert.ok(name.test(readPart), `${row.command} reads ${name}`);
      }
      for (const [path, name] of Object.entries(PATH_NAMES)) {
        if (name.test(readPart)) {
          assert.ok(held.read.includes(path), `${row.command} reads ${path}`);
        }
      }
      if (writePart === undefined) {
        assert.deepEqual(held.write, [], `${row.command} writes nothing`);
      }
      for (const name of named(held.write)) {
        assert.ok(name.test(writePart ?? ""), `${row.command} writes ${name}`);
      }
    }
    const says = (flag: string) => row.other.includes(flag);
    assert.equal(
      says("`--allow-ffi"),
      held.ffi.length > 0 || held.ffi === "all",
      `${row.command} ffi`,
    );
    assert.equal(says("`--allow-ffi`"), held.ffi === "all", `${row.command} unscoped ffi`);
    assert.equal(says("`--allow-sys`"), held.sys.length > 0, `${row.command} sys`);
    assert.equal(says("`--allow-run="), held.run.length > 0, `${row.command} run`);
    assert.equal(says("`--allow-env`"), held.env, `${row.command} env`);
  }
});
