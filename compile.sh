#!/usr/bin/env bash
# Builds one self-contained `tolk` binary for this machine's platform (linux-x64 here):
# `deno compile --self-extracting` with the module graph, the prompts and lexicons (JSON imports),
# the settings page's files (web/settings, read from disk at run time),
# and the native addons of onnxruntime-node and node-llama-cpp with the libraries beside them.
# --self-extracting unpacks the embedded tree on first run, so the .so files load next to their
# .node addon (plain `deno compile` extracts only the .node file).
#
# Usage: ./compile.sh [OUTPUT]            (default: dist/tolk)
#   DENORT_BIN=/path/to/denort  use a local runtime instead of downloading one (deno reads it)
#   TOLK_BUILD=text             the build stamp shown in /v1/health (default: date.commit)
#   DENO=/path/to/deno          the deno that compiles (default: deno on PATH)
#
# The permissions baked in are the `tolk` task's (README, Permissions): loopback and the model
# hub for the network, no prompts; each command drops what it never needs before it runs.
set -euo pipefail
cd "$(dirname "$0")"

output=${1:-dist/tolk}
deno=${DENO:-deno}
build=${TOLK_BUILD:-$(date -u +%Y-%m-%d).$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ort=linux/x64 llama=linux-x64 ;;
  Linux-aarch64) ort=linux/arm64 llama=linux-arm64 ;;
  Darwin-arm64) ort=darwin/arm64 llama=mac-arm64-metal ;;
  *) echo "compile.sh: no native addons known for $(uname -s)-$(uname -m)" >&2; exit 2 ;;
esac

"$deno" task deps >&2

env_file=$(mktemp)
trap 'rm -f "$env_file"' EXIT
printf 'TOLK_BUILD=%s\n' "$build" >"$env_file"

# Other platforms' onnxruntime builds (about 220 MB) and the test-only npm packages stay out.
excludes=(--exclude node_modules/.bin)
for dir in node_modules/onnxruntime-node/bin/napi-v6/*/*; do
  [ "$dir" = "node_modules/onnxruntime-node/bin/napi-v6/$ort" ] || excludes+=(--exclude "$dir")
done
while read -r package; do
  excludes+=(--exclude "node_modules/$package")
done < <("$deno" eval 'console.log(Object.keys(JSON.parse(Deno.readTextFileSync("package.json")).devDependencies).join("\n"))')

# The permission table (cli/permissions.ts) prints the binary's grant, one flag per line.
mapfile -t grants < <("$deno" run --no-prompt cli/permissions.ts)

# V8: a 2 MB young generation (idle RSS), and heap pages freed by a GC go back to the system at
# once instead of waiting in V8's pool for 8 s (RSS after a load, BENCHMARKS "WebSocket load").
mkdir -p "$(dirname "$output")"
"$deno" compile \
  --self-extracting \
  --v8-flags=--max-semi-space-size=2,--no-memory-pool \
  --env-file="$env_file" \
  "${grants[@]}" \
  --include "node_modules/onnxruntime-node/bin/napi-v6/$ort" \
  --include "node_modules/@node-llama-cpp/$llama" \
  --include engines/builtin/model_worker.ts \
  --include inference/decode_worker.ts \
  --include translation/memory/tmx_worker.ts \
  --include web/settings \
  "${excludes[@]}" \
  --output "$output" \
  main.ts
