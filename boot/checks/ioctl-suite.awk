# awk -v want=ran|skipped|failed [-v errno=NAME] -f boot/console.awk \
#     -f boot/checks/ioctl-suite.awk LOG...
#
# Whether the PIDFD_IOCTL_GETFD selftest ran or was skipped as a whole. On a
# kernel without the command its probe exits with KSFT_SKIP (4) and
# "1..0 # SKIP no PIDFD_IOCTL_GETFD in this kernel: the probe got ERRNO".
#   want=skipped  (a pristine kernel) every section of the selftest
#                 (pidfd_getfd_ioctl, yama-scope-3) is that skip, with the
#                 base's ERRNO, and exit status 4;
#   want=ran      (a patched kernel) no section of it, on no ABI, is skipped
#                 as a whole: a 32-bit ABI whose compat_ioctl is missing
#                 gets ENOTTY from its probe, and must fail, not skip. The
#                 kselftest runner's line for the test (upstream-pidfd) must
#                 not be a SKIP either;
#   want=failed   (a mutant kernel, boot/checks/mutant-einval.sh) every
#                 section ran, not skipped as a whole, and exited 1
#                 (KSFT_FAIL): a broken handler is a failure, not a skip.
# Prints one line per section; exits 1 if one is not as wanted, or if no
# section of the selftest is found.

function ours(t) { return t == "pidfd_getfd_ioctl" || t == "yama-scope-3" }

kind == "BEGIN" && ours(test) {
	key = run["arch"] "/" abi " " test
	skipline = ""
	next
}

test != "" && ours(test) && tap == "plan" && tap_skip && $0 ~ /^1\.\.0/ {
	skipline = $0
	next
}

# kselftest's runner: "ok 3 selftests: pidfd: pidfd_getfd_ioctl_test # SKIP"
want == "ran" && tap != "" && tap_skip && /selftests: pidfd: pidfd_getfd_ioctl_test/ {
	print "FAILED: " run["arch"] "/" abi " " test ": " $0 " (log: " FILENAME ")"
	bad++
	next
}

kind == "END" && ours(test) {
	n++
	if (want == "skipped") {
		reason = "no PIDFD_IOCTL_GETFD in this kernel: the probe got " errno
		if (index(skipline, reason) && status == "4") {
			print "ok: " key ": skipped: " substr(skipline, index(skipline, "SKIP ") + 5)
		} else {
			print "FAILED: " key ": not skipped with \"" reason "\" (plan line: '" \
				skipline "', status " status "; log: " FILENAME ")"
			bad++
		}
	} else if (want == "failed" && skipline == "" && status == "1") {
		print "ok: " key ": failed (status 1), as it must on this kernel"
	} else if (want == "failed") {
		print "FAILED: " key ": not a failure on a mutant kernel: status " status \
			(skipline != "" ? ", skipped as a whole: '" skipline "'" : "") " (log: " FILENAME ")"
		bad++
	} else if (skipline != "" || status == "4") {
		print "FAILED: " key ": skipped as a whole on a patched kernel: '" skipline \
			"', status " status " (log: " FILENAME ")"
		bad++
	} else {
		print "ok: " key ": ran (status " status ")"
	}
	next
}

END {
	if (!n) {
		print "FAILED: no section of the PIDFD_IOCTL_GETFD selftest in the logs"
		exit 1
	}
	exit bad > 0
}
