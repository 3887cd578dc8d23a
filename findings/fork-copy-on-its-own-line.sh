# A false alarm a real run can produce (upstream pidfd_test, in make
# check's upstream-pidfd). pidfd_test's pid-recycling child (pidfd_test.c
# test_pidfd_send_signal_recycled_pid_fail(), pid1) inherits the parent's
# unflushed stdout (TAP version 13, 1..8, ok 1..7), prints ~1000 "# waitpid
# WEXITSTATUS=0" lines (pidfd.h wait_for_pid()) through a 4096-byte stdio
# buffer, flushes only full buffers and _exit()s: its copy of the stream
# ends wherever its last full buffer ended, then the parent's whole stream
# follows. Real logs show that boundary inside a line ("# # waitpTAP version
# 13"), which the verdict reads as a replay. When the boundary falls on a
# line's end (about one time in 24: the "# waitpid WEXITSTATUS=0\n" line is
# 24 bytes, and the bytes before it vary with the pids the earlier tests
# print), the parent's "TAP version 13" stands on its own line: the verdict
# ends the copy's stream there, 7 of 8 points, and fails a good run.
. "$(dirname "$0")/lib.sh"
good x86_64
in_sect "$L" "x86_64 man-example" 's/^ok 1 point-1$/# TAP version 13\n# 1..3\n# ok 1 sub-1\n# ok 2 sub-2\n# # pid to recycle is 1000\n# # waitpid WEXITSTATUS=0\n# TAP version 13\n# 1..3\n# ok 1 sub-1\n# ok 2 sub-2\n# ok 3 sub-3\n# # Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0\nok 1 point-1/'
verdict
echo "(want: PASS; the same log with the boundary inside a line, '# # waitpTAP version 13', passes)"
