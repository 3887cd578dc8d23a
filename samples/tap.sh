# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# TAP for the samples' guest scripts (sourced): ok, skip, not_ok, check,
# say, expect_out, expect_not, check_or_skip. $failed is 1 once a case failed; the
# script ends with: echo "1..$n"; exit $failed
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n $*"; }
# check NAME CMD...: the case passes if CMD does
check() {
	name=$1
	shift
	t0=$(date +%s)
	if "$@"; then ok "$name"; _check=0; else not_ok "$name"; _check=1; fi
	t=$(($(date +%s) - t0))
	[ "$t" -lt 5 ] || say "(that took $t s)"
	# the case's status, not the timing line's: callers branch on it
	return "$_check"
}
say() { echo "# $*"; }

# expect_out STATUS PATTERN CMD...: CMD exits STATUS and prints PATTERN;
# expect_not STATUS PATTERN CMD...: CMD exits STATUS and never prints it
expect_out() { expect 1 "$@"; }
expect_not() { expect 0 "$@"; }
expect() {
	present=$1 want=$2 pattern=$3
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/#   /'
	[ "$rc" -eq "$want" ] || { say "exit status $rc, wanted $want"; return 1; }
	if printf '%s\n' "$out" | grep -q -- "$pattern"; then found=1; else found=0; fi
	[ "$found" = "$present" ] || { say "'$pattern' found $found times, wanted $present"; return 1; }
}
# check_or_skip NAME STATUS PATTERN CMD...: like check with expect_out, but
# a try-bind that says this ABI or kernel cannot do it is a skip, with why
check_or_skip() {
	name=$1
	shift
	if out=$(expect_out "$@"); then
		printf '%s\n' "$out"
		ok "$name"
	elif reason=$(printf '%s\n' "$out" | grep -m 1 '^#   try-bind: .*\(not supported\|no socketcall\)'); then
		printf '%s\n' "$out"
		skip "$name" "${reason#\#   try-bind: }"
	else
		printf '%s\n' "$out"
		not_ok "$name"
	fi
}
