# The records lib.sh passes to awk (-v NAME="KEY=VALUE;KEY=VALUE;..."),
# read once for every reader (boot/verdict.awk, boot/tests/plan-logs.awk).

# records(S, A): S's KEY=VALUE pairs into A[KEY] = VALUE
function records(s, a,    n, f, i, j) {
	n = split(s, f, ";")
	for (i = 1; i <= n; i++)
		if ((j = index(f[i], "=")) > 1)
			a[substr(f[i], 1, j - 1)] = substr(f[i], j + 1)
}

# abi_records(S, BITS, MACHINE): lib.sh's abi_rec, "ARCH/ABI=BITS MACHINE;...",
# into BITS[ARCH/ABI] and MACHINE[ARCH/ABI]
function abi_records(s, bits, machine,    r, k, w) {
	records(s, r)
	for (k in r) {
		split(r[k], w, " ")
		bits[k] = w[1]
		machine[k] = w[2]
	}
}
