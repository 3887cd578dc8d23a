# findings/lib.sh: make the plan's good check log of base 6.1 for ARCH (as
# boot/tests/verdict.sh's plan_log does), let a finding change it, and run
# the verdict on it. Use: . "$(dirname "$0")/lib.sh"; good x86_64; edit...; verdict
set -eu
F=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$F")
PLAN=${PLAN:-$TOP/boot/plan/logs}
TROUBLE=$TOP/boot/plan/trouble
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
D=$T/6.1
mkdir -p "$D"
smp_of() { (. "$TOP/boot/lib.sh" && load_arch "$1" >/dev/null && echo "$SMP_OK"); }
abi_rec_of() { (. "$TOP/boot/lib.sh" && abi_rec "$1"); }
# good ARCH [SUITE]: $L is the plan's log of ARCH-SUITE (check) of base 6.1
good() {
	A=$1 SUITE=${2:-check}
	L=$D/$A-$SUITE.log
	awk -v base=6.1 -v arch="$A" -v suite="$SUITE" -v smp="$(smp_of "$A")" -v token=5e1f0c2a9b7d4e31 \
		-v kv=6.1 -v abi_rec="$(abi_rec_of "$A")" -v trouble="$TROUBLE" -f "$TOP/boot/records.awk" -f "$TOP/boot/tests/plan-logs.awk" "$PLAN" >"$L"
}
edit() { sed -i "$2" "$1"; }
# in_sect LOG "ABI NAME" SED: SED on that section only
in_sect() { edit "$1" "/^@@@ BEGIN $2\$/,/^@@@ END $2 /{$3}"; }
# verdict [LOG...]: the verdict's last lines and its result; PASS only with
# exit 0 and the plan's counts as its last line
verdict() {
	[ $# -gt 0 ] || set -- "$L"
	rc=0
	PIDFD_GETFD_PLAN=$PLAN sh "$TOP/boot/verdict.sh" "$@" >"$T/out" 2>&1 || rc=$?
	grep '^FAILED' "$T/out" | sed "s|$T/||g" | head -5
	tail -n 2 "$T/out"
	counts=$(sed -n 's/^the plan (.*) for these logs: //p' "$T/out")
	if [ $rc = 0 ] && [ "$(tail -n 1 "$T/out")" = "$counts" ]; then
		echo "RESULT: PASS (exit 0, the plan's exact counts)"
	else
		echo "RESULT: FAIL (exit $rc)"
	fi
}
