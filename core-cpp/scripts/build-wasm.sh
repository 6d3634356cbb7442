#!/usr/bin/env bash
# Builds the nicsim core to WebAssembly: web/engine/wasm/nicsim_core.{js,wasm}.
#
#   bash core-cpp/scripts/build-wasm.sh [--force] [--quiet]
#
# Every emcc flag lives in this file (COMPILE_FLAGS / LINK_FLAGS below). Runnable from anywhere;
# paths are taken relative to the repository root. Skips the build when no input (source,
# header, this script) is newer than both outputs, unless --force.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

FORCE=0
QUIET=0
for arg in "$@"; do
  case "$arg" in
    --force) FORCE=1 ;;
    --quiet) QUIET=1 ;;
    -h | --help)
      sed -n '2,8p' "$0"
      exit 0
      ;;
    *)
      echo "build-wasm: unknown argument: $arg" >&2
      exit 2
      ;;
  esac
done

say() { [ "$QUIET" = 1 ] || echo "[build-wasm] $*" >&2; }

# ---------------------------------------------------------------------------------------------
# The flags. Keep them here and only here.
# ---------------------------------------------------------------------------------------------
INCLUDE_FLAGS=(-Icore-cpp -Ibuild/wasm-include)
COMPILE_FLAGS=(
  -std=c++17
  -O2
  -flto # bitcode: the whole core is optimised together at the link (below)
  -fno-exceptions
  -ffp-contract=off # no fused multiply-add: wasm results match the native build bit for bit
)
LINK_FLAGS=(
  # Link-time optimisation of the whole core at -O3: calls between its files inline (a wasm
  # call, direct or indirect, costs more than a native one). On the bench point (npm run bench)
  # -flto gave the model +3 % events/s, -O3 at the link +2.6 % more; -O3 without -flto was ±0.
  -O3
  -flto
  -fno-exceptions
  --bind
  -sMODULARIZE
  -sEXPORT_ES6
  -sENVIRONMENT=web,worker
  -sEXPORT_NAME=createNicsimCore
  -sALLOW_MEMORY_GROWTH=1
  -sFILESYSTEM=0
)

SRC_DIRS=(sim trace scenario link bus nic sinic offload eta host workload api protocache)
OUT_DIR=web/engine/wasm
OUT_JS="$OUT_DIR/nicsim_core.js"
OUT_WASM="$OUT_DIR/nicsim_core.wasm"
OBJ_DIR=build/wasm-obj
INC_DIR=build/wasm-include

# Debian's emcc needs this to find acorn for optimised builds.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

if ! command -v emcc > /dev/null 2>&1; then
  echo "build-wasm: emcc not found; run: node web/scripts/ensure-tools.mjs wasm" >&2
  exit 1
fi

# One build at a time (npm test, the Playwright web server and a developer may start one at once):
# a second build waits here, then finds the outputs up to date.
mkdir -p build
exec 9> build/.build-wasm.lock
if command -v flock > /dev/null 2>&1 && ! flock -n 9; then
  say "waiting for another wasm build to finish"
  flock 9
fi

# The trace API is generated from core-cpp/trace/trace_kinds.json (written only when it changes,
# so an unchanged definition does not make the outputs out of date).
if ! node core-cpp/scripts/gen-trace.mjs; then
  echo "build-wasm: generating the trace API failed" >&2
  exit 1
fi

# Sources: every .cpp under the model folders, plus the bindings.
SOURCES=()
for d in "${SRC_DIRS[@]}"; do
  [ -d "core-cpp/$d" ] || continue
  while IFS= read -r f; do SOURCES+=("$f"); done < <(find "core-cpp/$d" -name '*.cpp' | LC_ALL=C sort)
done
if [ ! -f core-cpp/wasm/bindings.cpp ]; then
  echo "build-wasm: core-cpp/wasm/bindings.cpp does not exist yet" >&2
  exit 1
fi
SOURCES+=(core-cpp/wasm/bindings.cpp)

# Up to date? Inputs are all sources and headers of those folders, and this script.
if [ "$FORCE" = 0 ] && [ -f "$OUT_JS" ] && [ -f "$OUT_WASM" ]; then
  oldest="$OUT_JS"
  [ "$OUT_WASM" -ot "$OUT_JS" ] && oldest="$OUT_WASM"
  input_dirs=()
  for d in "${SRC_DIRS[@]}" wasm; do [ -d "core-cpp/$d" ] && input_dirs+=("core-cpp/$d"); done
  newer="$(find "${input_dirs[@]}" "${BASH_SOURCE[0]}" -type f \
    \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.inc' -o -name '*.sh' \) \
    -newer "$oldest" -print -quit)"
  # A folder whose file was deleted is newer too.
  [ -z "$newer" ] && newer="$(find "${input_dirs[@]}" -type d -newer "$oldest" -print -quit)"
  if [ -z "$newer" ]; then
    say "up to date: $OUT_JS, $OUT_WASM (use --force to rebuild)"
    exit 0
  fi
  say "rebuilding: $newer changed"
fi

# nlohmann json is header-only from Debian. emcc gets a folder holding only a link to it, never
# /usr/include itself (whose glibc headers would shadow emscripten's libc).
if [ ! -f /usr/include/nlohmann/json.hpp ]; then
  echo "build-wasm: /usr/include/nlohmann/json.hpp missing; run: node web/scripts/ensure-tools.mjs wasm" >&2
  exit 1
fi
mkdir -p "$INC_DIR" "$OUT_DIR"
ln -sfn /usr/include/nlohmann "$INC_DIR/nlohmann"

# The outputs get the time the build started, so a source edited during the build is newer.
STAMP=build/.build-wasm.stamp
touch "$STAMP"

# Compile each source to an object, two at a time (2-core machines), then link.
rm -rf "$OBJ_DIR"
mkdir -p "$OBJ_DIR"
JOBS="${NICSIM_JOBS:-$(nproc 2> /dev/null || echo 2)}"
say "emcc: compiling ${#SOURCES[@]} sources ($JOBS at a time)"
OBJECTS=()
for src in "${SOURCES[@]}"; do
  obj="$OBJ_DIR/${src#core-cpp/}"
  OBJECTS+=("${obj%.cpp}.o")
done
export COMPILE_LINE="emcc ${COMPILE_FLAGS[*]} ${INCLUDE_FLAGS[*]}"
printf '%s\n' "${SOURCES[@]}" | xargs -P "$JOBS" -I{} bash -c '
  src="$1"; obj="'"$OBJ_DIR"'/${src#core-cpp/}"; obj="${obj%.cpp}.o"
  mkdir -p "$(dirname "$obj")"
  $COMPILE_LINE -c "$src" -o "$obj" || { echo "build-wasm: failed to compile $src" >&2; exit 1; }
' _ {}

say "emcc: linking $OUT_JS"
emcc "${LINK_FLAGS[@]}" "${OBJECTS[@]}" -o "$OUT_JS"
touch -r "$STAMP" "$OUT_WASM" "$OUT_JS"
say "built $OUT_JS ($(wc -c < "$OUT_JS") bytes), $OUT_WASM ($(wc -c < "$OUT_WASM") bytes)"
