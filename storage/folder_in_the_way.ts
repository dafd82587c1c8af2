/**
 * Why a folder the user named cannot be one because a file stands where it, or a folder on its
 * path, should be — the one rule behind the data and models folders' "is a file" refusals.
 */
import { dirname } from "node:path";

/**
 * "it is a file, not a directory" when `folder` is a file, "<path> is a file, not a directory"
 * naming the file on its path the user can go and look at (else the words would be the OS's
 * "Not a directory (os error 20)") or, when the sandbox hides which, that one on its path is; or
 * null when neither (including when it does not exist yet, or another error comes: the caller
 * reports that one where it opens the folder).
 */
export async function fileInTheWay(folder: string): Promise<string | null> {
  try {
    return (await Deno.stat(folder)).isDirectory ? null : "it is a file, not a directory";
  } catch (error) {
    if (!(error instanceof Deno.errors.NotADirectory)) return null;
  }
  for (let path = dirname(folder); path !== dirname(path); path = dirname(path)) {
    const found = await Deno.stat(path).catch(() => null);
    if (found?.isFile) return `${path} is a file, not a directory`;
  }
  // The sandbox may refuse to look at the folders above (`tolk models` reads only its own).
  return "a folder on its path is a file, not a directory";
}
