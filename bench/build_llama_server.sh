#!/usr/bin/env bash
# Builds llama.cpp's own `llama-server` from the llama.cpp source node-llama-cpp ships, as the speed
# anchor for `tolk infer` (bench/infer_anchor_bench.ts). Same source, same patches, same CPU flags as
# the prebuilt CPU library node-llama-cpp loads on this machine, no OpenMP (the prebuilt has none):
# the comparison then measures server design, not compilers.
#
#   bench/build_llama_server.sh            # builds bench/.llama-server/build/bin/llama-server
#   LLAMA_CPU_VARIANT=haswell bench/...    # forces a variant instead of the one this CPU selects
#   JOBS=4 bench/...                       # parallel compile jobs (default: nproc)
#
# Needs git, cmake and a C++ compiler; without them it prints why and exits 0 (nothing to compare
# against, the bench then skips the anchor). Nothing is downloaded: the source is the git bundle in
# node_modules, and the server's web UI is left out. Re-running is cheap: a finished build whose
# source, patches and flags are unchanged is kept.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
out="$here/.llama-server"
src="$out/src"
build="$out/build"
binary="$build/bin/llama-server"
nlc="$repo/node_modules/node-llama-cpp/llama"
bundle="$nlc/gitRelease.bundle"
amx_fix="$here/llama-amx-gcc12-barrier.diff"

missing=()
for tool in git cmake; do command -v "$tool" >/dev/null || missing+=("$tool"); done
command -v "${CXX:-c++}" >/dev/null || missing+=("a C++ compiler (${CXX:-c++})")
command -v "${CC:-cc}" >/dev/null || missing+=("a C compiler (${CC:-cc})")
if ((${#missing[@]})); then
  echo "build_llama_server: skipped, missing: ${missing[*]} (Debian: apt-get install build-essential cmake git)" >&2
  exit 0
fi
if [[ ! -f "$bundle" ]]; then
  echo "build_llama_server: skipped, $bundle not found (install node_modules first)" >&2
  exit 0
fi

# The CPU variant ggml would pick among the prebuilt libggml-cpu-*.so: the one with the highest
# score whose features this CPU all has (ggml/src/ggml-cpu/arch/x86/cpu-feats.cpp). Variants and
# their feature lists are those of ggml/src/CMakeLists.txt (GGML_CPU_ALL_VARIANTS, x86).
select_variant() {
  local flags
  flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
  has() { [[ "$flags" == *" $1 "* ]]; }
  feature_present() {
    case "$1" in
      SSE42) has sse4_2 ;; AVX) has avx ;; F16C) has f16c ;; FMA) has fma ;; AVX2) has avx2 ;;
      BMI2) has bmi2 ;; AVX_VNNI) has avx_vnni ;;
      AVX512) has avx512f && has avx512cd && has avx512vl && has avx512dq && has avx512bw ;;
      AVX512_VBMI) has avx512vbmi ;; AVX512_VNNI) has avx512_vnni ;; AVX512_BF16) has avx512_bf16 ;;
      AMX_TILE) has amx_tile ;; AMX_INT8) has amx_int8 ;;
      *) return 1 ;;
    esac
  }
  weight() {
    case "$1" in
      FMA) echo 1 ;; F16C) echo 2 ;; SSE42) echo 4 ;; BMI2) echo 8 ;; AVX) echo 16 ;; AVX2) echo 32 ;;
      AVX_VNNI) echo 64 ;; AVX512) echo 128 ;; AVX512_VBMI) echo 256 ;; AVX512_BF16) echo 512 ;;
      AVX512_VNNI) echo 1024 ;; AMX_INT8) echo 2048 ;; *) echo 0 ;;
    esac
  }
  local best="x64" best_score=1 line name feat score ok
  while read -r line; do
    read -r name feats_line <<<"$line"
    score=1 ok=1
    for feat in $feats_line; do
      if feature_present "$feat"; then score=$((score + $(weight "$feat"))); else ok=0; fi
    done
    if ((ok && score > best_score)); then best="$name" best_score=$score; fi
  done <<'EOF'
sse42 SSE42
sandybridge SSE42 AVX
ivybridge SSE42 AVX F16C
piledriver SSE42 AVX F16C FMA
haswell SSE42 AVX F16C FMA AVX2 BMI2
skylakex SSE42 AVX F16C FMA AVX2 BMI2 AVX512
cannonlake SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VBMI
cascadelake SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VNNI
icelake SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VBMI AVX512_VNNI
cooperlake SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VNNI AVX512_BF16
zen4 SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VBMI AVX512_VNNI AVX512_BF16
alderlake SSE42 AVX F16C FMA AVX2 BMI2 AVX_VNNI
sapphirerapids SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VBMI AVX512_VNNI AVX512_BF16 AMX_TILE AMX_INT8
EOF
  echo "$best"
}

variant_features() {
  case "$1" in
    x64) echo "" ;;
    sse42) echo "SSE42" ;;
    sandybridge) echo "SSE42 AVX" ;;
    ivybridge) echo "SSE42 AVX F16C" ;;
    piledriver) echo "SSE42 AVX F16C FMA" ;;
    haswell) echo "SSE42 AVX F16C FMA AVX2 BMI2" ;;
    skylakex) echo "SSE42 AVX F16C FMA AVX2 BMI2 AVX512" ;;
    cannonlake) echo "SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VBMI" ;;
    cascadelake) echo "SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VNNI" ;;
    icelake) echo "SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VBMI AVX512_VNNI" ;;
    cooperlake) echo "SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VNNI AVX512_BF16" ;;
    zen4) echo "SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VBMI AVX512_VNNI AVX512_BF16" ;;
    alderlake) echo "SSE42 AVX F16C FMA AVX2 BMI2 AVX_VNNI" ;;
    sapphirerapids) echo "SSE42 AVX F16C FMA AVX2 BMI2 AVX512 AVX512_VBMI AVX512_VNNI AVX512_BF16 AMX_TILE AMX_INT8" ;;
    *) echo "build_llama_server: unknown LLAMA_CPU_VARIANT '$1'" >&2; exit 2 ;;
  esac
}

if [[ "$(uname -m)" != "x86_64" ]]; then
  echo "build_llama_server: only x86-64 variants are mapped here; building with GGML_NATIVE=ON" >&2
  variant="native"
  cpu_flags=(-DGGML_NATIVE=ON)
else
  variant="${LLAMA_CPU_VARIANT:-$(select_variant)}"
  cpu_flags=(-DGGML_NATIVE=OFF)
  for feat in NATIVE SSE42 AVX AVX2 BMI2 AVX_VNNI FMA F16C AVX512 AVX512_VBMI AVX512_VNNI \
    AVX512_BF16 AMX_TILE AMX_INT8 AMX_BF16; do
    on=OFF
    for wanted in $(variant_features "$variant"); do [[ "$wanted" == "$feat" ]] && on=ON; done
    cpu_flags+=("-DGGML_$feat=$on")
  done
fi

patches=("$nlc"/patches/*.diff "$amx_fix")
stamp_key="$(git bundle list-heads "$bundle" | head -1) $variant $(cat "${patches[@]}" | sha256sum | cut -c1-16)"
if [[ -x "$binary" && -f "$out/stamp" && "$(cat "$out/stamp")" == "$stamp_key" ]]; then
  echo "build_llama_server: up to date: $binary ($variant)"
  exit 0
fi

echo "build_llama_server: llama.cpp from $bundle, CPU variant $variant" >&2
rm -rf "$src" "$build" "$out/stamp"
mkdir -p "$out"
git -c advice.detachedHead=false clone --quiet "$bundle" "$src"
for patch in "${patches[@]}"; do
  if git -C "$src" apply --check --reverse --ignore-whitespace "$patch" 2>/dev/null; then
    echo "build_llama_server: $(basename "$patch") already in the source" >&2
  else
    git -C "$src" apply --ignore-whitespace "$patch"
    echo "build_llama_server: applied $(basename "$patch")" >&2
  fi
done

cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release "${cpu_flags[@]}" \
  -DGGML_OPENMP=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF >"$out/configure.log"
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target llama-server
echo "$stamp_key" >"$out/stamp"
echo "build_llama_server: built $binary ($variant)"
