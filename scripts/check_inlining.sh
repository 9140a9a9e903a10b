#!/usr/bin/env bash
# The element accessors and other one-instruction inline functions must be inlined: called out of
# line they cost a call per element. GCC leaves them out of line when they look large to its
# inliner, e.g. a memcpy to a pointer of unknown size under _FORTIFY_SOURCE=3 (Ubuntu 24.04's and
# Fedora's default): scatter_nd with 64-float rows ran 11x slower. STRIDED_ALWAYS_INLINE
# (util/isa.hpp) marks them; this check finds any weak (inline or template) function of the
# library of at most 12 bytes of machine code (a load or store and a return, with an endbr64)
# that some call instruction still targets.
#
# Usage: scripts/check_inlining.sh FILE...   (objects and/or static archives, e.g. libstrided.a)
# Environment: NM (default nm), OBJDUMP (default objdump).
# Exit status: 0 clean, 1 calls found (listed), 77 tools missing (ctest reports a skip).
# ctest runs it as `inlined_accessors`; CI's plain CMake build (scripts/check_consumer.sh) adds
# -D_FORTIFY_SOURCE=3 on Linux so that the check sees what those distributions' builds get.
set -euo pipefail
NM=${NM:-nm}
OBJDUMP=${OBJDUMP:-objdump}
for tool in "$NM" "$OBJDUMP"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "check_inlining: $tool not found; skipped"; exit 77; }
done
[[ $# -gt 0 ]] || { echo "usage: $0 FILE... (objects and/or static archives)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Weak functions of namespace strided with their smallest size: "size<TAB>name".
"$NM" -S -C --defined-only "$@" 2>/dev/null |
  awk '$3 ~ /^[WwVv]$/ && $2 != "" { sz = ("0x" $2) + 0; $1 = ""; $2 = ""; $3 = ""; sub(/^ +/, "");
        if ($0 ~ /strided::/ && (!($0 in s) || sz < s[$0])) s[$0] = sz }
       END { for (k in s) print s[k] "\t" k }' >"$tmp/weak"
# Call targets: "count<TAB>name".
"$OBJDUMP" -dr -C "$@" 2>/dev/null |
  awk '/^[[:space:]]+[0-9a-f]+:[[:space:]].*call/ { want = 1; next }
       want && /R_X86_64_(PLT32|PC32)|R_AARCH64_CALL26/ { sub(/.*(R_X86_64_(PLT32|PC32)|R_AARCH64_CALL26)[[:space:]]+/, "");
        sub(/([-+]0x[0-9a-f]+)$/, ""); n[$0]++ }
       { want = 0 }
       END { for (k in n) print n[k] "\t" k }' >"$tmp/calls"
awk -F'\t' 'NR == FNR { s[$2] = $1; next } ($2 in s) && s[$2] <= 12 { printf "  %5d calls to %s (%d bytes)\n", $1, $2, s[$2] }' \
  "$tmp/weak" "$tmp/calls" | sort -rn >"$tmp/bad"
if [[ -s $tmp/bad ]]; then
  echo "check_inlining: inline functions of at most 12 bytes called out of line (mark them STRIDED_ALWAYS_INLINE):"
  cat "$tmp/bad"
  exit 1
fi
echo "check_inlining: no call to an inline function of 12 bytes or less ($(wc -l <"$tmp/weak") weak functions, $(wc -l <"$tmp/calls") call targets)"
