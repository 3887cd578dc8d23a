# A partial kernel-log dump passes. The verdict wants the dump's first
# records (banner, CPUs, /init's start, the boot id record) and an END, but
# nothing that says the dump holds the rest: init.c drops the records lost
# to the ring without a word ('if (n < 0 && errno == EPIPE) continue;', and
# the SEQ field that numbers them is read with %*u and thrown away), and
# the console's records are not held against it. Here the dump stops at
# /init's boot id while the console shows the kernel printing during the
# tests (a warning-level record, as the console shows them): whatever
# info-level record went with it (kmemleak's "N new suspected memory
# leaks" is pr_info, so on the dump only) is not there, and the run passes.
. "$(dirname "$0")/lib.sh"
good x86_64
edit "$L" '/^@@@ CONSOLE/,${/reboot: Restarting system/i [    1.500000] kselftest: Running tests in pidfd
}'
# (verdict4: the dump is the authority, not the console; /init now writes
# 'init: dumping the kernel log, boot_id=' before it dumps, and says any
# record lost to the ring by SEQ: a dump that stops at the boot id lacks it)
edit "$L" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/{/init: dumping the kernel log/d}'
sed -n '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/p' "$L"
verdict
