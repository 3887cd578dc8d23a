#!/bin/sh
# boot/verdict.sh LOG...
#   The verdict over LOGs (boot/verdict.awk reading them through
#   boot/console.awk), each held against the plan: boot/plan/logs (or
#   PIDFD_GETFD_PLAN, the self-test's) and boot/plan/trouble, and each
#   guest log against its arch's record (boot/arch/ARCH/arch.conf: the CPUs
#   the kernel must bring up, each ABI's word size and uname machine) and its base's (boot/base/BASE/base.conf: the
#   KERNEL_VERSION its kernel's banner must say). Exit 0 only if every LOG
#   is there, complete, holds what the plan says and nothing failed.
set -eu
. "$(dirname "$0")/lib.sh"
# each arch's line for all of its CPUs up, from its record (boot/lib.sh SMP_OK)
smp_ok=
for a in $(known_arches); do
	smp_ok="$smp_ok$a=$(load_arch "$a" >/dev/null && echo "$SMP_OK");"
done
# each ABI's word size and the machine uname(2) reports to it, from its
# arch's record (boot/guest-tests/hello.c says both)
abi_recs=
for a in $(known_arches); do
	abi_recs="$abi_recs$(abi_rec "$a")"
done
# each base's kernel version, from its record
base_kv=
for b in $(known_bases); do
	base_kv="$base_kv$b=$(unset KERNEL_VERSION; . "$TOP/boot/base/$b/base.conf" && echo "$KERNEL_VERSION");"
done
exec awk -v planfile="${PIDFD_GETFD_PLAN:-$TOP/boot/plan/logs}" -v trouble="$TOP/boot/plan/trouble" \
	-v known_bases="$(known_bases | tr '\n' ' ')" -v known_arches="$(known_arches | tr '\n' ' ')" \
	-v smp_ok="$smp_ok" -v base_kv="$base_kv" -v abi_rec="$abi_recs" \
	-f "$TOP/boot/console.awk" -f "$TOP/boot/records.awk" -f "$TOP/boot/verdict.awk" "$@"
