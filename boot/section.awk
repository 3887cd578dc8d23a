# awk [-v sabi=ABI] [-v stest=TEST] -f boot/console.awk -f boot/section.awk LOG...
#   The lines of the named test sections, BEGIN to END, without carriage
#   returns (an empty filter matches every ABI or test); the readers of
#   test output (boot/checks/baseline.sh, boot/bench/report.sh) take them here.
test != "" && (sabi == "" || abi == sabi) && (stest == "" || test == stest) { print }
