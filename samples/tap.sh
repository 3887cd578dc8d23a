# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# TAP for the samples' guest scripts (sourced): ok, skip, not_ok, check,
# say, expect_out, expect_not, check_or_skip; and the waits the scripts
# share: retry, wait_file, hold. $failed is 1 once a case failed; the
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

# retry SECONDS CMD...: CMD until it succeeds, tried every $RETRY_TENTHS
# tenths of a second (1), SECONDS of those pauses at most (CMD's own time
# not counted: a try that hangs is CMD's to end)
retry() {
	_step=${RETRY_TENTHS:-1}
	_left=$(($1 * 10 / _step))
	shift
	until "$@"; do
		_left=$((_left - 1))
		[ "$_left" -gt 0 ] || return 1
		sleep "$((_step / 10)).$((_step % 10))"
	done
}
# wait_file FILE PATTERN [SECONDS]: until FILE has PATTERN (30 s at most;
# says so if not)
wait_file() {
	retry "${3:-30}" grep -q -- "$2" "$1" 2>/dev/null ||
		{ say "'$2' not in $1 after ${3:-30} s"; return 1; }
}
# hold OUT CMD...: CMD in the background (its pid in $holder), until OUT
# says "holding" (60 s: a start under TCG on a busy host is slow), which
# is then said. OUT is emptied here, not by the background job's
# redirection: a file left by an earlier test that says "holding" would
# pass the wait at once
hold() {
	_out=$1
	shift
	: >"$_out"
	"$@" >"$_out" 2>&1 &
	# shellcheck disable=SC2034 # the caller's, to end it
	holder=$!
	wait_file "$_out" holding 60 || return 1
	say "$(cat "$_out")"
}
