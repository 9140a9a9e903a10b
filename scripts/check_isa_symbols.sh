#!/usr/bin/env bash
# Per-ISA translation units (*_avx2.cpp, *_avx512.cpp) are compiled with -mavx2 / -mavx512f...;
# any weak or global symbol they define can be chosen by the linker for the whole library
# (COMDAT/weak folding: first definition wins), and then baseline code runs AVX2/AVX-512
# instructions -- SIGILL on CPUs without them, or different code than the one tested. So an ISA
# object may define, as global or weak, only its own entry points:
#   functions in namespace strided::detail whose name ends in _<isa> (kernels_avx2(),
#   kernels_avx512()), defined in no other object;
# everything else it defines must have internal linkage (unnamed namespace, static).
#
# Usage: scripts/check_isa_symbols.sh FILE...
#   FILE: object files and/or static archives (e.g. build/rel/libstrided.a), or @LIST, a file
#   naming one per line. An object or archive member is an ISA object when its name contains
#   _avx2. or _avx512.; all others are baseline.
#   Symbols of an ISA object are compared with every baseline object and every ISA object of
#   another name (so -O0 copies of the same ISA sources can be checked beside the archive).
# Environment: NM (default nm), CXXFILT (default c++filt, else llvm-cxxfilt).
# Exit status: 0 clean, 1 violations (listed), 77 tools missing (ctest reports a skip).
# ctest runs it as the test `isa_symbols` (CMakeLists.txt) on the library archive and on the ISA
# sources compiled once more at -O0, where nothing is inlined: an inline function or template an
# ISA file uses then shows up as a weak symbol whatever the compiler's inlining decisions.
set -euo pipefail

NM=${NM:-nm}
if [[ -z "${CXXFILT:-}" ]]; then
  CXXFILT=c++filt
  command -v "$CXXFILT" >/dev/null 2>&1 || CXXFILT=llvm-cxxfilt
fi
for tool in "$NM" "$CXXFILT"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "check_isa_symbols: $tool not found; skipped"; exit 77; }
done
[[ $# -gt 0 ]] || { echo "usage: $0 FILE... (objects and/or static archives; @LIST reads names from LIST)" >&2; exit 2; }

files=()
for a in "$@"; do
  if [[ $a == @* ]]; then
    while IFS= read -r line; do [[ -n $line ]] && files+=("$line"); done <"${a#@}"
  else
    files+=("$a")
  fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One line per defined symbol: <object> <symbol> <type>. POSIX format (-P) with -A names each
# symbol's file as "archive[member]:" or "object:"; mangled names have no spaces.
for f in "${files[@]}"; do
  [[ -e $f ]] || { echo "check_isa_symbols: $f does not exist" >&2; exit 2; }
  "$NM" -A -P --defined-only "$f" 2>/dev/null | awk '{ o = $1; sub(/:$/, "", o); print o, $2, $3 }'
done >"$tmp/all"

awk '{print $2}' "$tmp/all" | "$CXXFILT" >"$tmp/demangled"
paste -d '\t' "$tmp/all" "$tmp/demangled" >"$tmp/syms"

# Data that compilers and sanitizers put in every object, identical by construction and holding
# no code (so no instruction of the object's ISA can reach baseline callers through them):
#   DW.ref.__gxx_personality_v0  a pointer to the C++ personality routine (unwind tables)
#   ___asan_globals_registered   AddressSanitizer's per-module flag (clang; a common symbol)
#   _ZTI* / _ZTS*                typeinfo objects and names (clang's -fsanitize=function emits
#                                them for the function types of the entry points)
# and one function that clang writes the same in every object that has a noexcept function
# calling one that may throw (seen at -O0): its body is `push; call __cxa_begin_catch; call
# std::terminate`, no instruction that depends on the ISA flags:
#   __clang_call_terminate
export ALLOW='^(DW\.ref\.__gxx_personality_v0|___asan_globals_registered|_ZT[IS].*|__clang_call_terminate)$'

awk -F '\t' '
  function base(o,   b) {  # archive member or file name, without directories
    b = o
    if (match(b, /\[[^]]*\]$/)) b = substr(b, RSTART + 1, RLENGTH - 2)
    sub(/^.*\//, "", b)
    return b
  }
  function isa_of(o,   b) {
    b = base(o)
    if (b ~ /_avx512\./) return "avx512"
    if (b ~ /_avx2\./) return "avx2"
    return ""
  }
  {
    split($1, f, " ")
    obj = f[1]; sym = f[2]; type = f[3]; dem = $2
    # Global or weak definitions only: upper-case types (but U), GNU unique (u), ifunc (i).
    if (!(type ~ /^[A-TV-Z]$/ || type == "u" || type == "i")) next
    if (sym ~ ENVIRON["ALLOW"]) next
    n++; O[n] = obj; S[n] = sym; T[n] = type; D[n] = dem
    objs[obj] = 1
    defs[sym] = defs[sym] SUBSEP n
  }
  END {
    bad = 0; nisa = 0; nbase = 0; nentry = 0
    for (o in objs) { if (isa_of(o) != "") nisa++; else nbase++ }
    for (i = 1; i <= n; i++) {
      isa = isa_of(O[i])
      if (isa == "") continue
      # An entry point: [return type] strided::detail::[ns::]name_<isa>[<targs>](params)
      re = "^([^()]* )?strided::detail::([A-Za-z_][A-Za-z0-9_]*::)*[A-Za-z_][A-Za-z0-9_]*_" isa "(<[^()]*>)?\\([^()]*\\)$"
      if (D[i] !~ re) {
        printf "check_isa_symbols: %s (%s ISA object) defines %s symbol that is not one of its entry points:\n    %s\n    [%s]\n", O[i], isa, T[i], D[i], S[i]
        bad++
      } else {
        nentry++
      }
      m = split(defs[S[i]], idx, SUBSEP)
      for (k = 2; k <= m; k++) {
        j = idx[k] + 0
        if (j == i || base(O[j]) == base(O[i])) continue
        printf "check_isa_symbols: %s is defined both in %s (%s) and in %s (%s); the linker keeps one copy for all callers:\n    %s\n", S[i], O[i], isa, O[j], (isa_of(O[j]) == "" ? "baseline" : isa_of(O[j])), D[i]
        bad++
      }
    }
    if (nisa == 0) { print "check_isa_symbols: no ISA objects (*_avx2.*, *_avx512.*) among the files given"; exit 1 }
    if (bad) { printf "check_isa_symbols: FAILED: %d problem(s) in %d ISA object(s)\n", bad, nisa; exit 1 }
    printf "check_isa_symbols: OK: %d ISA object(s) define %d entry point(s) and nothing else global or weak; %d baseline object(s)\n", nisa, nentry, nbase
  }
' "$tmp/syms"
