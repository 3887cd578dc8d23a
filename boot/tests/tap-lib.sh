#!/bin/sh
# samples/tap.sh's check returns its case's status: a test script may
# branch on it (oci-test.sh's "if check ... start ...; then"), and a case
# that failed must not take the branch of one that passed. Prints what it
# found; exits 1 on the first wrong answer.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP/samples" || exit 1
. ./tap.sh
out=$(check "a case that passes" true) && echo "passing case: returns 0 ($out)" ||
	{ echo "a passing case returned non-zero ($out)"; exit 1; }
if out=$(check "a case that fails" false); then
	echo "a failing case returned 0 ($out): the branch of a passed case is taken"
	exit 1
fi
echo "failing case: returns non-zero ($out)"
