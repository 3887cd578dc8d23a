# awk [-v show_tap=1] -f boot/console.awk -f boot/progress.awk
#   boot/run.sh's progress: one line per finished test, what the guest's
#   /init says, processes left behind, and with show_tap every TAP result
#   and diagnostic.
kind == "END" { print abi "/" test ": " status; fflush(); next }
kind == "INIT" { print text; fflush(); next }
kind == "STRAY" { print "left behind: " abi " " test " " stray; fflush(); next }
show_tap != "" && test != "" && (tap == "ok" || tap == "not ok" || /^# [^ ]/) { print; fflush() }
