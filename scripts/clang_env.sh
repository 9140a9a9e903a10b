#!/usr/bin/env bash
# Sourced by scripts/run_sanitizers.sh and scripts/run_fuzz.sh: sets CXX_BIN and CC_BIN to a clang
# that can link libFuzzer + ASan + UBSan, installing clang and the libFuzzer runtime with apt-get
# when they are missing (CI runs as root). Both scripts then share one build (build/asan).
find_clang() {
  for c in clang++ clang++-19 clang++-18 clang++-17 clang++-16 clang++-15 clang++-14; do
    if command -v "$c" >/dev/null 2>&1; then echo "$c"; return 0; fi
  done
  return 1
}
have_libfuzzer() {  # the libFuzzer runtime ships separately on Debian (libclang-rt-N-dev)
  local probe rc
  probe=$(mktemp)
  echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' |
    "$1" -x c++ -fsanitize=fuzzer,address,undefined - -o "$probe" >/dev/null 2>&1
  rc=$?; rm -f "$probe"; return $rc
}
CXX_BIN="$(find_clang || true)"
if [ -z "$CXX_BIN" ] || ! have_libfuzzer "$CXX_BIN"; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  ver="$(apt-cache policy clang | sed -n 's/^ *Candidate: [0-9]*:\{0,1\}\([0-9]*\).*/\1/p')"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang "libclang-rt-${ver}-dev" "libomp-${ver}-dev" >/dev/null ||
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang >/dev/null
  CXX_BIN="$(find_clang)"
fi
CC_BIN="${CXX_BIN/clang++/clang}"
